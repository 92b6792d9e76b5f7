import {
  analyzeText,
  bm25Weight,
  type KnowledgeChunk,
  pickTerms,
  rankScope,
  type ScopeDocument,
  type ScoredHit,
  searchableText,
} from '@mem/core/backend';
import type { Database } from 'better-sqlite3';
import { type Scope, scopeRows } from './kb-scope-cache.ts';
import type { KnowledgeStatements, TermsRow } from './kb-statements.ts';

/*
 * What BM25 needs, kept in the file beside the chunks, so that a search scoped to a session or
 * a user reads its scope's rows and a handful of statistics instead of an in-memory index of the
 * whole collection:
 *
 * - `mem_kb_stats`: per collection, how many chunks and their analyzed lengths summed;
 * - `mem_kb_df`: per collection and term, how many chunks hold the term;
 * - `mem_kb_terms`: per chunk row, its analyzed length and its distinct terms with their
 *   frequencies (`encodeTerms`), with what ties need (created_at, chunk and session ids).
 *
 * Every write keeps them in step inside its transaction. The scores are core's `rankScope`, equal
 * to the last bit to the in-memory knowledge base's (`Bm25Index`).
 */

/** A chunk's analyzed text as stored: its length and distinct terms with their frequencies. */
export interface AnalyzedChunk {
  /** The analyzed terms, repeats included, space-separated (the FTS5 body). */
  readonly body: string;
  readonly length: number;
  /** `" term:frequency"` per distinct term, in first-seen order. */
  readonly encoded: string;
  readonly distinct: readonly string[];
}

/**
 * Analyzes a chunk like the in-memory knowledge base does (`analyzeText` of `searchableText`).
 * A term never holds a space or a colon (it is letters, digits and marks joined by `-`, `_` or
 * `.`, or a CJK bigram), so `" term:"` finds exactly one term in the encoding.
 */
export function analyzeChunk(chunk: KnowledgeChunk): AnalyzedChunk {
  const terms = analyzeText(searchableText(chunk));
  const frequencies = new Map<string, number>();
  for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  let encoded = '';
  for (const [term, tf] of frequencies) encoded += ` ${term}:${tf}`;
  return {
    body: terms.join(' '),
    length: terms.length,
    encoded,
    distinct: [...frequencies.keys()],
  };
}

/** The distinct terms of an encoding (`analyzeChunk().encoded`). */
export function decodeTerms(encoded: string): string[] {
  const out: string[] = [];
  for (const item of encoded.split(' ')) {
    const colon = item.lastIndexOf(':');
    if (colon > 0) out.push(item.slice(0, colon));
  }
  return out;
}

/** Records a chunk row in the statistics (inside the write that inserted it). */
export function addTerms(
  st: KnowledgeStatements,
  collection: number,
  id: number,
  chunk: KnowledgeChunk,
  analyzed: AnalyzedChunk,
): void {
  st.insertTerms.run({
    id,
    collection,
    sid: chunk.metadata.sessionId,
    chunkId: chunk.id,
    user: chunk.metadata.userId ?? null,
    createdAt: chunk.metadata.createdAt,
    length: analyzed.length,
    terms: analyzed.encoded,
  });
  for (const term of analyzed.distinct) st.incrementDf.run({ collection, term });
  st.addStats.run({ collection, documents: 1, length: analyzed.length });
}

/** Takes a chunk row out of the statistics (inside the write that deletes it). */
export function removeTerms(st: KnowledgeStatements, collection: number, id: number): void {
  const row = st.termsOf.get({ id });
  if (row === undefined) return;
  for (const term of decodeTerms(row.terms)) {
    const left = st.decrementDf.get({ collection, term });
    if (left !== undefined && left.documents <= 0) st.deleteDf.run({ collection, term });
  }
  st.addStats.run({ collection, documents: -1, length: -row.length });
  st.deleteTerms.run({ id });
}

/**
 * The `topK` best chunks of a scope (a session, a user, or a user's chunks in a session) for
 * distinct query `terms`, by BM25 with the whole collection's statistics, best first. Reads the
 * collection's statistics and the document frequency of each query term from the file, the
 * scope's term rows from the connection's scope cache (caught up with every commit first, or read
 * from the file), and the JSON of the hits only. Inside a read transaction.
 */
export function searchScope(
  db: Database,
  st: KnowledgeStatements,
  collection: number,
  terms: readonly string[],
  scope: Scope,
  topK: number,
): ScoredHit[] {
  const stats = st.stats.get({ collection });
  if (stats === undefined || stats.documents <= 0) return [];
  const frequencies = new Map<string, number>();
  for (const row of st.dfOf.all({ collection, terms: JSON.stringify(terms) })) {
    frequencies.set(row.term, row.documents);
  }
  const weighted: { term: string; weight: number }[] = [];
  for (const term of terms) {
    const df = frequencies.get(term);
    if (df !== undefined && df > 0)
      weighted.push({ term, weight: bm25Weight(stats.documents, df) });
  }
  const picked = pickTerms(weighted);
  if (picked.length === 0) return [];
  const cached = scopeRows(db, st, collection, scope);
  const postings = picked.map(({ term }) => cached.postings(term));
  const candidates = new Set<number>();
  for (const posting of postings) for (const id of posting.keys()) candidates.add(id);
  const docs: ScopeDocument<TermsRow>[] = [];
  for (const id of candidates) {
    const row = cached.rows.get(id) as TermsRow;
    docs.push({
      length: row.length,
      createdAt: row.created_at,
      id: row.chunk_id,
      sessionId: row.session_id,
      ref: row,
    });
  }
  const ranked = rankScope(
    { documents: stats.documents, totalLength: stats.length },
    picked,
    docs,
    (doc, into) => {
      for (let i = 0; i < postings.length; i++) {
        into[i] = (postings[i] as Map<number, number>).get(doc.ref.id) ?? 0;
      }
    },
    topK,
  );
  return ranked.map(({ doc, score }) => {
    const row = st.chunkJson.get({ id: doc.ref.id });
    if (row === undefined) throw new Error(`chunk row ${doc.ref.id} has terms but no chunk`);
    return { chunk: JSON.parse(row.json) as KnowledgeChunk, score };
  });
}

/**
 * Fills the statistics of every chunk already in the file (the migration to schema 6): a
 * collection written before them is analyzed once, as the first search used to on every
 * connection. A row this package did not write (its JSON is not a chunk) is left out: searches
 * never find it, deletes still remove it.
 */
export function backfillTerms(st: KnowledgeStatements): void {
  // In pages: the connection cannot write while a statement iterates.
  let after = 0;
  for (;;) {
    const page = st.chunkRowsPage.all({ after, limit: 1000 });
    if (page.length === 0) return;
    for (const row of page) backfillRow(st, row);
    after = (page[page.length - 1] as { id: number }).id;
  }
}

function backfillRow(
  st: KnowledgeStatements,
  row: { id: number; collection: number; json: string },
): void {
  let chunk: KnowledgeChunk;
  let analyzed: AnalyzedChunk;
  try {
    chunk = JSON.parse(row.json) as KnowledgeChunk;
    analyzed = analyzeChunk(chunk);
  } catch {
    return;
  }
  addTerms(st, row.collection, row.id, chunk, analyzed);
}
