import {
  type KnowledgeChunk,
  keyByChunk,
  kthScore,
  newerFirst,
  type Ranked,
  type ScoredHit,
} from '@mem/core/backend';
import type { Cluster, Redis } from 'ioredis';

/** One session of a searched collection: its id and its keys (see `kbKeys`). */
export interface SessionScope {
  sessionId: string;
  keys: string[];
  /**
   * For a search by user: the user, how many of the session's chunks are theirs, and whether it
   * holds chunks of others too (see `redis-kb-users.ts`).
   */
  owner?: { userId: string; count: number; mixed: boolean };
}

/** A scored document of one session of the scope, before its chunk is read. */
export interface Candidate {
  session: number;
  doc: string;
  score: number;
}

/**
 * The `depth` best candidates as ranked hits, best first: reads the chunks of every candidate
 * that could still make the cut after tie-breaking (one HMGET per session), then orders by score,
 * the newer chunk, the smaller id. A chunk replaced or deleted since it was scored is left out,
 * and so is one whose user is not the scope's (a chunk re-added under another user meanwhile).
 */
export async function readRanked(
  client: Redis | Cluster,
  sessions: readonly SessionScope[],
  scored: Candidate[],
  depth: number,
): Promise<Ranked<ScoredHit>[]> {
  if (scored.length === 0 || depth <= 0) return [];
  // The depth-th best score, without sorting every candidate.
  const scores = Float64Array.from(scored, (c) => c.score);
  const order = Int32Array.from(scores.keys());
  const cut = kthScore(scores, order, scored.length, Math.min(depth, scored.length));
  const bySession = new Map<number, Candidate[]>();
  for (const candidate of scored) {
    if (candidate.score < cut) continue;
    const list = bySession.get(candidate.session) ?? [];
    list.push(candidate);
    bySession.set(candidate.session, list);
  }
  const hits: ScoredHit[] = [];
  await Promise.all(
    [...bySession].map(async ([session, list]) => {
      const { keys, owner } = sessions[session] as SessionScope;
      const texts = await client.hmget(keys[1] as string, ...list.map((c) => c.doc));
      list.forEach((candidate, i) => {
        const text = texts[i];
        if (typeof text !== 'string') return;
        const chunk = JSON.parse(text) as KnowledgeChunk;
        if (owner !== undefined && chunk.metadata.userId !== owner.userId) return;
        hits.push({ chunk, score: candidate.score });
      });
    }),
  );
  hits.sort((a, b) => b.score - a.score || newerFirst(a, b));
  return keyByChunk(hits.slice(0, depth));
}
