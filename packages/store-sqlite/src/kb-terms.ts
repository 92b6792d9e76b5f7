import {
  analyzeText,
  bm25Norms,
  bm25TermScore,
  bm25Weight,
  type KnowledgeChunk,
  pickTerms,
  rankScope,
  type ScoredHit,
  searchableText,
  topScored,
} from '@mem/core/backend';
import type { Database } from 'better-sqlite3';
import { type Scope, scopeRows } from './kb-scope-cache.ts';
import type { KnowledgeStatements, TermsRow } from './kb-statements.ts';
import { frequenciesIn, termWords } from './kb-term-words.ts';

/*
 * What BM25 needs, kept in the file beside the chunks, so that a search scoped to a session or
 * a user reads its scope's rows and a handful of statistics instead of an in-memory index of the
 * whole collection:
 *
 * - `mem_kb_stats`: per collection, how many chunks and their analyzed lengths summed;
 * - `mem_kb_df`: per collection and term, the term's id and how many chunks hold it;
 * - `mem_kb_terms`: per chunk row, its analyzed length and its distinct terms as ids with their
 *   frequencies (`encodeTerms`), with what ties need (created_at, chunk and session ids).
 *
 * Every write keeps them in step inside its transaction. The scores are core's `rankScope`, equal
 * to the last bit to the in-memory knowledge base's (`Bm25Index`).
 */

/** A chunk's analyzed text: its length and distinct terms with their frequencies. */
export interface AnalyzedChunk {
  /** The analyzed terms, repeats included, space-separated (the FTS5 body). */
  readonly body: string;
  readonly length: number;
  /** Distinct term → its frequency, in first-seen order. */
  readonly frequencies: ReadonlyMap<string, number>;
}

/** Analyzes a chunk like the in-memory knowledge base does (`analyzeText` of `searchableText`). */
export function analyzeChunk(chunk: KnowledgeChunk): AnalyzedChunk {
  const terms = analyzeText(searchableText(chunk));
  const frequencies = new Map<string, number>();
  for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  return { body: terms.join(' '), length: terms.length, frequencies };
}

/** `n` term ids, ascending, as uint32 LE, then their frequencies in the same order. */
function encodeTerms(pairs: [id: number, tf: number][]): Buffer {
  pairs.sort((a, b) => a[0] - b[0]);
  const n = pairs.length;
  const out = Buffer.allocUnsafe(8 * n);
  for (let i = 0; i < n; i++) {
    const [id, tf] = pairs[i] as [number, number];
    out.writeUInt32LE(id, 4 * i);
    out.writeUInt32LE(tf, 4 * (n + i));
  }
  return out;
}

/** The term ids of an encoding. */
function termIds(encoded: Buffer): Uint32Array {
  const words = termWords(encoded);
  return words.subarray(0, words.length >>> 1);
}

/**
 * Records chunk rows in the statistics (inside the write that inserted them): `add` each row,
 * then `flush` once. A term shared by many chunks of the batch costs one update of its count.
 */
export class TermsBatch {
  readonly #st: KnowledgeStatements;
  readonly #collection: number;
  readonly #rows: { id: number; chunk: KnowledgeChunk; analyzed: AnalyzedChunk }[] = [];
  readonly #counts = new Map<string, number>();

  constructor(st: KnowledgeStatements, collection: number) {
    this.#st = st;
    this.#collection = collection;
  }

  add(id: number, chunk: KnowledgeChunk, analyzed: AnalyzedChunk): void {
    this.#rows.push({ id, chunk, analyzed });
    for (const term of analyzed.frequencies.keys()) {
      this.#counts.set(term, (this.#counts.get(term) ?? 0) + 1);
    }
  }

  flush(): void {
    const st = this.#st;
    const collection = this.#collection;
    if (this.#rows.length === 0) return;
    const ids = new Map<string, number>();
    for (const [term, n] of this.#counts) {
      ids.set(term, (st.incrementDf.get({ collection, term, n }) as { id: number }).id);
    }
    let length = 0;
    for (const { id, chunk, analyzed } of this.#rows) {
      const pairs: [number, number][] = [];
      for (const [term, tf] of analyzed.frequencies) pairs.push([ids.get(term) as number, tf]);
      st.insertTerms.run({
        id,
        collection,
        sid: chunk.metadata.sessionId,
        chunkId: chunk.id,
        user: chunk.metadata.userId ?? null,
        createdAt: chunk.metadata.createdAt,
        length: analyzed.length,
        terms: encodeTerms(pairs),
      });
      length += analyzed.length;
    }
    st.addStats.run({ collection, documents: this.#rows.length, length });
    this.#rows.length = 0;
    this.#counts.clear();
  }
}

/** Takes a chunk row out of the statistics (inside the write that deletes it). */
export function removeTerms(st: KnowledgeStatements, collection: number, id: number): void {
  const row = st.termsOf.get({ id });
  if (row === undefined) return;
  for (const term of termIds(row.terms)) {
    const left = st.decrementDf.get({ id: term });
    if (left !== undefined && left.documents <= 0) st.deleteDf.run({ id: term });
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
  const found = new Map<string, { id: number; documents: number }>();
  for (const row of st.dfOf.all({ collection, terms: JSON.stringify(terms) })) {
    found.set(row.term, row);
  }
  const weighted: { id: number; term: string; weight: number }[] = [];
  for (const term of terms) {
    const row = found.get(term);
    if (row !== undefined && row.documents > 0) {
      weighted.push({ id: row.id, term, weight: bm25Weight(stats.documents, row.documents) });
    }
  }
  const picked = pickTerms(weighted);
  if (picked.length === 0) return [];
  const collectionStats = { documents: stats.documents, totalLength: stats.length };
  // Chunk and session ids, read only to order hits of equal score and time, once per search.
  const keys = new Map<number, readonly [string, string]>();
  const access = {
    length: (row: TermsRow) => row[2],
    createdAt: (row: TermsRow) => row[1],
    key: (row: TermsRow) => {
      let key = keys.get(row[0]);
      if (key === undefined) {
        key = st.chunkKey.get({ id: row[0] }) as [string, string];
        keys.set(row[0], key);
      }
      return key;
    },
  };
  const view = scopeRows(db, st, collection, scope);
  let ranked: { doc: TermsRow; score: number }[];
  if (view.index === undefined) {
    const wanted = picked.map(({ id }, slot) => [id, slot] as const).sort((a, b) => a[0] - b[0]);
    ranked = rankScope(
      collectionStats,
      picked,
      view.rows,
      { ...access, frequencies: (row, into) => frequenciesIn(row[3], wanted, into) },
      topK,
    );
  } else {
    // Term at a time over the postings, in `picked` order: the sums `rankScope` would make.
    const norms = bm25Norms(collectionStats);
    const index = view.index;
    const { bySlot, scores, stamps } = index;
    if (index.stamp === 0xffffffff) {
      stamps.fill(0);
      index.stamp = 0;
    }
    const stamp = ++index.stamp;
    const touched: number[] = [];
    for (const { id: term, weight } of picked) {
      const posting = index.postings.get(term);
      if (posting === undefined) continue;
      const { slots, tfs } = posting;
      for (let j = 0; j < slots.length; j++) {
        const slot = slots[j] as number;
        const row = bySlot[slot];
        if (row === undefined) continue; // removed since the postings were built
        const part = bm25TermScore(weight, tfs[j] as number, row[2], norms);
        if (stamps[slot] === stamp) scores[slot] = part + (scores[slot] as number);
        else {
          stamps[slot] = stamp;
          scores[slot] = part;
          touched.push(slot);
        }
      }
    }
    ranked = topScored(
      touched.map((slot) => bySlot[slot] as TermsRow),
      touched.map((slot) => scores[slot] as number),
      access,
      topK,
    );
  }
  let chunks = parsedChunks.get(db);
  if (chunks === undefined) {
    chunks = new Map();
    parsedChunks.set(db, chunks);
  }
  const kept = chunks;
  return ranked.map(({ doc, score }) => {
    const id = doc[0];
    let chunk = kept.get(id);
    if (chunk === undefined) {
      const row = st.chunkJson.get({ id });
      if (row === undefined) throw new Error(`chunk row ${id} has terms but no chunk`);
      chunk = JSON.parse(row.json) as KnowledgeChunk;
      kept.set(id, chunk);
      if (kept.size > PARSED_CHUNKS) kept.delete(kept.keys().next().value as number);
    } else {
      kept.delete(id);
      kept.set(id, chunk);
    }
    return { chunk, score };
  });
}

/**
 * Chunks a search returned, parsed, by row id, per connection (the least recently returned
 * dropped first). A row's JSON never changes (a replaced chunk gets a new row id, and ids are
 * never reused), so an entry needs no invalidation; callers get copies.
 */
const parsedChunks = new WeakMap<Database, Map<number, KnowledgeChunk>>();
const PARSED_CHUNKS = 4_096;

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
    const batches = new Map<number, TermsBatch>();
    for (const row of page) {
      let batch = batches.get(row.collection);
      if (batch === undefined) {
        batch = new TermsBatch(st, row.collection);
        batches.set(row.collection, batch);
      }
      backfillRow(batch, row);
    }
    for (const batch of batches.values()) batch.flush();
    after = (page[page.length - 1] as { id: number }).id;
  }
}

function backfillRow(batch: TermsBatch, row: { id: number; json: string }): void {
  let chunk: KnowledgeChunk;
  let analyzed: AnalyzedChunk;
  try {
    chunk = JSON.parse(row.json) as KnowledgeChunk;
    analyzed = analyzeChunk(chunk);
  } catch {
    return;
  }
  batch.add(row.id, chunk, analyzed);
}
