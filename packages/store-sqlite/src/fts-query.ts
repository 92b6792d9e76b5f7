import { analyzeText } from '@mem/core/backend';

/**
 * Query terms beyond this many (after dedupe) are dropped, to bound the cost of one search. (The
 * BM25 search then scores at most the rarest 8 of them, as the in-memory knowledge base does.)
 */
export const MAX_QUERY_TERMS = 256;

/**
 * Index text for FTS5: the terms of `analyzeText` (the analyzer of the in-memory knowledge base:
 * folded, stopwords dropped, compounds kept whole and split, CJK bigrams), space-separated. The
 * query goes through the same analyzer, so both sides agree on what a word is.
 */
export function indexText(text: string): string {
  return analyzeText(text).join(' ');
}
