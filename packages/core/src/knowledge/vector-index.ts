import { dotProduct, keepsSimilarity, normalizeVector } from './cosine.ts';
import type { KnowledgeChunk } from './knowledge-base-spec.ts';
import { newerFirst, type ScoredHit } from './rank-hits.ts';

interface Entry {
  readonly chunk: KnowledgeChunk;
  /** Unit length. */
  readonly vector: Float32Array;
}

/**
 * The vectors of one collection's chunks, in memory, searched exactly: a search computes the
 * cosine similarity of the query with every vector of its scope (the collection, one
 * session, one user's chunks) and keeps the best in a small sorted buffer, so it allocates nothing per vector.
 * Vectors are stored at unit length, so a similarity is one dot product.
 */
export class VectorIndex {
  /** sessionId → chunk id → entry. */
  readonly #sessions = new Map<string, Map<string, Entry>>();

  /** Stores (or replaces) `chunk`'s vector, normalized in place; a zero vector is not stored. */
  set(chunk: KnowledgeChunk, vector: Float32Array): void {
    const { sessionId } = chunk.metadata;
    let session = this.#sessions.get(sessionId);
    if (!normalizeVector(vector)) {
      this.delete(chunk);
      return;
    }
    if (session === undefined) {
      session = new Map();
      this.#sessions.set(sessionId, session);
    }
    session.set(chunk.id, { chunk, vector });
  }

  delete(chunk: KnowledgeChunk): void {
    const { sessionId } = chunk.metadata;
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return;
    session.delete(chunk.id);
    if (session.size === 0) this.#sessions.delete(sessionId);
  }

  /**
   * The `depth` chunks nearest to `query` (normalized in place) by cosine similarity (the score),
   * best first, keeping only similarities `keepsSimilarity` accepts; ties go to the newer chunk.
   * `sessionId` and `userId` (when given) restrict the scope to chunks matching both.
   */
  nearest(
    query: Float32Array,
    depth: number,
    sessionId: string | undefined,
    minSimilarity: number | undefined,
    userId?: string,
  ): ScoredHit[] {
    if (depth <= 0 || !normalizeVector(query)) return [];
    const best: ScoredHit[] = [];
    const visit = (session: Map<string, Entry>): void => {
      for (const entry of session.values()) {
        if (entry.vector.length !== query.length) continue;
        if (userId !== undefined && entry.chunk.metadata.userId !== userId) continue;
        const score = dotProduct(query, entry.vector);
        if (!keepsSimilarity(score, minSimilarity)) continue;
        const worst = best[best.length - 1];
        if (best.length === depth && worst !== undefined && !beats(entry.chunk, score, worst)) {
          continue;
        }
        // Insertion into the sorted buffer: depth is small (a few times topK).
        let i = best.length === depth ? depth - 1 : best.length;
        while (i > 0 && beats(entry.chunk, score, best[i - 1] as ScoredHit)) {
          best[i] = best[i - 1] as ScoredHit;
          i -= 1;
        }
        best[i] = { chunk: entry.chunk, score };
      }
    };
    if (sessionId === undefined) {
      for (const session of this.#sessions.values()) visit(session);
    } else {
      const session = this.#sessions.get(sessionId);
      if (session !== undefined) visit(session);
    }
    return best;
  }
}

function beats(chunk: KnowledgeChunk, score: number, other: ScoredHit): boolean {
  return score !== other.score ? score > other.score : newerFirst({ chunk, score }, other) < 0;
}
