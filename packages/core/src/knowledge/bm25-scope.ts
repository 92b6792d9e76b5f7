import { BM25_B, BM25_K1 } from './bm25-state.ts';
import { kthHighest } from './select-top-k.ts';

/* BM25 over one scope's documents with the statistics of a whole collection, for a knowledge
 * base that keeps those statistics (document count, total length, each term's document
 * frequency) beside the documents instead of holding an in-memory index (the SQLite one). The
 * arithmetic is `searchBm25`'s, term for term and in the same order, so the scores are equal to
 * the last bit and the rankings equal the in-memory knowledge base's. */

/** Most query terms a search scores: the `MAX_QUERY_TERMS` rarest (highest idf). */
export const MAX_QUERY_TERMS = 8;

/** A collection's statistics: how many documents, and their lengths summed (terms, repeats included). */
export interface Bm25CollectionStats {
  readonly documents: number;
  readonly totalLength: number;
}

/** A query term the search scores, with its weight `idf · (k1 + 1)`. */
export interface WeightedTerm {
  readonly term: string;
  readonly weight: number;
}

/** Lucene's BM25 idf: never negative, even for a term in every document. */
export function bm25Idf(documents: number, frequency: number): number {
  return Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));
}

/** A term's weight, `idf · (k1 + 1)`. */
export function bm25Weight(documents: number, frequency: number): number {
  return bm25Idf(documents, frequency) * (BM25_K1 + 1);
}

/** A document's norm `k1 · (1 - b + b · length / averageLength)` is `normBase + normPerLength · length`. */
export function bm25Norms(stats: Bm25CollectionStats): { normBase: number; normPerLength: number } {
  return {
    normBase: BM25_K1 * (1 - BM25_B),
    normPerLength: (BM25_K1 * BM25_B * stats.documents) / Math.max(stats.totalLength, 1),
  };
}

/**
 * Picks and orders the query terms a search scores: the terms some document holds, highest
 * weight (rarest) first, equal weights in query order; at most `MAX_QUERY_TERMS`. Scores are
 * summed in this order, so it is part of the ranking.
 */
export function pickTerms<T extends { readonly weight: number }>(terms: readonly T[]): T[] {
  const picked = [...terms].sort((a, b) => b.weight - a.weight);
  if (picked.length > MAX_QUERY_TERMS) picked.length = MAX_QUERY_TERMS;
  return picked;
}

/** How `rankScope` reads a document of the scope (a row, say, of any shape `D`). */
export interface ScopeAccess<D> {
  /** The document's length (terms, repeats included). */
  length(doc: D): number;
  /** Its `metadata.createdAt`: newer first on equal scores. */
  createdAt(doc: D): number;
  /** Writes into `into[i]` the frequency of picked term `i` (left 0 when absent). */
  frequencies(doc: D, into: Float64Array): void;
  /** Its chunk id and session id: asked only to order documents of equal score and time. */
  key(doc: D): readonly [id: string, sessionId: string];
}

/**
 * The `topK` best documents of a scope, best first, with their BM25 scores; documents matching
 * none of the picked terms are left out. Ties go to the newer document (`createdAt`), then the
 * smaller id, then the smaller session id, as in `Bm25Index`.
 */
export function rankScope<D>(
  stats: Bm25CollectionStats,
  terms: readonly WeightedTerm[],
  documents: Iterable<D>,
  access: ScopeAccess<D>,
  topK: number,
): { doc: D; score: number }[] {
  if (terms.length === 0 || topK <= 0) return [];
  const norms = bm25Norms(stats);
  const tfs = new Float64Array(terms.length);
  const matched: D[] = [];
  const scores: number[] = [];
  for (const doc of documents) {
    tfs.fill(0);
    access.frequencies(doc, tfs);
    let score = 0;
    let found = false;
    const length = access.length(doc);
    for (let i = 0; i < terms.length; i++) {
      const tf = tfs[i] as number;
      if (tf === 0) continue;
      const part = bm25TermScore((terms[i] as WeightedTerm).weight, tf, length, norms);
      score = found ? part + score : part;
      found = true;
    }
    if (found) {
      matched.push(doc);
      scores.push(score);
    }
  }
  return topScored(matched, scores, access, topK);
}

/**
 * The `topK` best of scored documents (`scores[i]` is `documents[i]`'s), best first, ordered as
 * `rankScope` orders them: for a knowledge base that sums the scores itself (term at a time,
 * with `bm25TermScore` in `pickTerms` order).
 */
export function topScored<D>(
  matched: readonly D[],
  scores: readonly number[],
  access: Pick<ScopeAccess<D>, 'createdAt' | 'key'>,
  topK: number,
): { doc: D; score: number }[] {
  if (matched.length === 0 || topK <= 0) return [];
  // Only documents scoring at least the k-th best score can be in the top k.
  const bar = matched.length > topK ? kthHighest(scores, topK) : Number.NEGATIVE_INFINITY;
  const hits: { doc: D; score: number }[] = [];
  for (let i = 0; i < matched.length; i++) {
    const score = scores[i] as number;
    if (score >= bar) hits.push({ doc: matched[i] as D, score });
  }
  hits.sort((a, b) => {
    if (a.score !== b.score) return b.score - a.score;
    const ta = access.createdAt(a.doc);
    const tb = access.createdAt(b.doc);
    if (ta !== tb) return tb - ta;
    const [ia, sa] = access.key(a.doc);
    const [ib, sb] = access.key(b.doc);
    if (ia !== ib) return ia < ib ? -1 : 1;
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  });
  if (hits.length > topK) hits.length = topK;
  return hits;
}

/** What one term adds to a document's BM25 score: `searchBm25`'s expression, in its order. */
export function bm25TermScore(
  weight: number,
  tf: number,
  length: number,
  norms: { normBase: number; normPerLength: number },
): number {
  return (weight * tf) / (tf + norms.normBase + norms.normPerLength * length);
}
