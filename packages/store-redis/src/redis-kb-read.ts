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
 * the newer chunk, the smaller id. A chunk replaced or deleted since it was scored is left out.
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
      const chunksKey = (sessions[session] as SessionScope).keys[1] as string;
      const texts = await client.hmget(chunksKey, ...list.map((c) => c.doc));
      list.forEach((candidate, i) => {
        const text = texts[i];
        if (typeof text !== 'string') return;
        hits.push({ chunk: JSON.parse(text) as KnowledgeChunk, score: candidate.score });
      });
    }),
  );
  hits.sort((a, b) => b.score - a.score || newerFirst(a, b));
  return keyByChunk(hits.slice(0, depth));
}
