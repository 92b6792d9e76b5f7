import { BM25_B, BM25_K1 } from './bm25-state.ts';

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

/** One document of the scope: its length and, per picked term (same order), its frequency. */
export interface ScopeDocument<R> {
  readonly length: number;
  readonly createdAt: number;
  readonly id: string;
  readonly sessionId: string;
  readonly ref: R;
}

/**
 * The `topK` best documents of a scope, best first, with their BM25 scores. `frequencies(doc)`
 * gives the document's frequency of each picked term (in `terms`' order, 0 when absent);
 * documents matching none are left out. Ties go to the newer document (`createdAt`), then the
 * smaller id, then the smaller session id, as in `Bm25Index`.
 */
export function rankScope<R>(
  stats: Bm25CollectionStats,
  terms: readonly WeightedTerm[],
  documents: Iterable<ScopeDocument<R>>,
  frequencies: (doc: ScopeDocument<R>, into: Float64Array) => void,
  topK: number,
): { doc: ScopeDocument<R>; score: number }[] {
  if (terms.length === 0 || topK <= 0) return [];
  const { normBase, normPerLength } = bm25Norms(stats);
  const tfs = new Float64Array(terms.length);
  const hits: { doc: ScopeDocument<R>; score: number }[] = [];
  for (const doc of documents) {
    tfs.fill(0);
    frequencies(doc, tfs);
    let score = 0;
    let matched = false;
    for (let i = 0; i < terms.length; i++) {
      const tf = tfs[i] as number;
      if (tf === 0) continue;
      const { weight } = terms[i] as WeightedTerm;
      // searchBm25's expression, evaluated in the same order.
      const part = (weight * tf) / (tf + normBase + normPerLength * doc.length);
      score = matched ? part + score : part;
      matched = true;
    }
    if (matched) hits.push({ doc, score });
  }
  hits.sort((a, b) => b.score - a.score || tieOrder(a.doc, b.doc));
  if (hits.length > topK) hits.length = topK;
  return hits;
}

function tieOrder(a: ScopeDocument<unknown>, b: ScopeDocument<unknown>): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
}
