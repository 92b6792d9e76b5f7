import {
  type KnowledgeChunk,
  keyByChunk,
  kthHighest,
  newerFirst,
  type Ranked,
  type ScoredHit,
} from '@mem/core/backend';
import type { Cluster, Redis } from 'ioredis';
import { ChunkCache } from './redis-kb-chunk-cache.ts';

/** One session of a searched collection: its id and its keys (see `kbKeys`). */
export interface SessionScope {
  sessionId: string;
  keys: string[];
  /**
   * For a search by user: the user, how many of the session's chunks are theirs, and whether it
   * holds chunks of others too (see `redis-kb-users.ts`).
   */
  owner?: { userId: string; count: number; mixed: boolean };
  /** The session's incarnation as a search read it ('' or absent: its chunks are not cached). */
  epoch?: string;
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
 * With a `cache`, chunks of sessions with an `epoch` are taken from it when there (the `HMGET`
 * reads the others only, and is skipped when none is missing), and kept there once read.
 */
export async function readRanked(
  client: Redis | Cluster,
  sessions: readonly SessionScope[],
  scored: Candidate[],
  depth: number,
  cache?: ChunkCache,
): Promise<Ranked<ScoredHit>[]> {
  if (scored.length === 0 || depth <= 0) return [];
  // The depth-th best score, without sorting every candidate.
  const scores = new Float64Array(scored.length);
  for (let i = 0; i < scored.length; i++) scores[i] = (scored[i] as Candidate).score;
  const cut = kthHighest(scores, Math.min(depth, scored.length));
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
      const { keys, owner, epoch } = sessions[session] as SessionScope;
      const chunksKey = keys[1] as string;
      const keep = (candidate: Candidate, chunk: KnowledgeChunk) => {
        if (owner !== undefined && chunk.metadata.userId !== owner.userId) return;
        hits.push({ chunk, score: candidate.score });
      };
      let missing = list;
      if (cache !== undefined && epoch) {
        missing = [];
        for (const candidate of list) {
          const chunk = cache.get(ChunkCache.key(chunksKey, epoch, candidate.doc));
          if (chunk === undefined) missing.push(candidate);
          else keep(candidate, chunk);
        }
        if (missing.length === 0) return;
      }
      const texts = await client.hmget(chunksKey, ...missing.map((c) => c.doc));
      missing.forEach((candidate, i) => {
        const text = texts[i];
        if (typeof text !== 'string') return;
        const chunk = JSON.parse(text) as KnowledgeChunk;
        if (cache !== undefined && epoch) {
          cache.set(ChunkCache.key(chunksKey, epoch, candidate.doc), chunk, text.length);
        }
        keep(candidate, chunk);
      });
    }),
  );
  hits.sort((a, b) => b.score - a.score || newerFirst(a, b));
  return keyByChunk(hits.slice(0, depth));
}
