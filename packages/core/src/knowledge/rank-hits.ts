import type { KnowledgeChunk, KnowledgeHit } from './knowledge-base-spec.ts';
import { type Ranked, reciprocalRankFusion } from './reciprocal-rank-fusion.ts';

/** A hit before ranking. */
export interface ScoredHit {
  chunk: KnowledgeChunk;
  score: number;
}

/**
 * How deep each list of a hybrid search goes (and a semantic one looks) for `topK` hits: deep
 * enough that a chunk ranked low in one list but high in the other still meets the fusion.
 */
export function candidateDepth(topK: number): number {
  return Math.max(4 * topK, 20);
}

/** The tie-break of every ranking: the newer chunk, then the smaller chunk id, then session id. */
export function newerFirst(a: ScoredHit, b: ScoredHit): number {
  const x = a.chunk;
  const y = b.chunk;
  const byTime = y.metadata.createdAt - x.metadata.createdAt;
  if (byTime !== 0) return byTime;
  if (x.id !== y.id) return x.id < y.id ? -1 : 1;
  const [s, t] = [x.metadata.sessionId, y.metadata.sessionId];
  return s < t ? -1 : s > t ? 1 : 0;
}

/** Hits, best first, with ranks from 1. */
export function rankHits(hits: readonly ScoredHit[]): KnowledgeHit[] {
  return hits.map(({ chunk, score }, i) => ({ chunk, score, rank: i + 1 }));
}

/**
 * The `topK` best of a lexical and a semantic list (each best first, keyed by chunk across the
 * two) fused by Reciprocal Rank Fusion with `rrfK`; the score is the fused one.
 */
export function fuseHits(
  lexical: readonly Ranked<ScoredHit>[],
  semantic: readonly Ranked<ScoredHit>[],
  rrfK: number,
  topK: number,
): KnowledgeHit[] {
  const fused = reciprocalRankFusion([lexical, semantic], rrfK, newerFirst);
  return rankHits(fused.slice(0, topK).map(({ item, score }) => ({ chunk: item.chunk, score })));
}

/** Hits keyed by their chunk (session and id), as the fusion takes them. */
export function keyByChunk(hits: readonly ScoredHit[]): Ranked<ScoredHit>[] {
  return hits.map((item) => ({
    key: `${item.chunk.metadata.sessionId}\u0000${item.chunk.id}`,
    item,
  }));
}
