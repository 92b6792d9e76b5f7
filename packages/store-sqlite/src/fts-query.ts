import { analyzeText } from '@mem/core';

/** Query terms beyond this many (after dedupe) are dropped, to bound the cost of one search. */
export const MAX_QUERY_TERMS = 256;

/**
 * Index text for FTS5: the terms of `analyzeText` (the analyzer of the in-memory knowledge base:
 * folded, stopwords dropped, compounds kept whole and split, CJK bigrams), space-separated. The
 * query goes through the same analyzer, so both sides agree on what a word is.
 */
export function indexText(text: string): string {
  return analyzeText(text).join(' ');
}

/**
 * A safe FTS5 MATCH expression for `query` in collection `scope`, or undefined when the query
 * has no searchable words. Every term is a quoted string (`"` doubled), so user text is never
 * FTS5 syntax: `NEAR(`, `*`, `AND`, `col:x` are just words or nothing.
 */
export function matchExpression(scope: string, query: string): string | undefined {
  const terms = [...new Set(analyzeText(query))].slice(0, MAX_QUERY_TERMS);
  if (terms.length === 0) return undefined;
  return `scope : ${quote(scope)} AND body : (${terms.map(quote).join(' OR ')})`;
}

function quote(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}
