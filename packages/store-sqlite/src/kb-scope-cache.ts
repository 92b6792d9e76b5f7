import type { Database } from 'better-sqlite3';
import type { KnowledgeStatements, StoredTermsRow, TermsRow } from './kb-statements.ts';
import { termWords } from './kb-term-words.ts';

/**
 * Most chunk rows a connection keeps in its scope cache, all scopes together (about 16 bytes per
 * distinct term of a chunk, its words and its place in the scope's postings, plus ~150 bytes:
 * ~1.1 kB for three dialogue turns). A scope with more rows is read from the file on every
 * search.
 */
export const SCOPE_CACHE_CHUNKS = 50_000;
/** Scopes with fewer rows are scanned whole; larger ones get postings once searched twice. */
const POSTINGS_FROM = 256;

/** A search scope: one session, one user's chunks, or one user's chunks in one session. */
export interface Scope {
  readonly sessionId?: string;
  readonly userId?: string;
}

/**
 * The term rows of one scope, kept per connection between searches and caught up with every
 * commit (this connection's and other processes') before each use: rows added since are those
 * with a larger id (ids are never reused), rows deleted since are in the tombstone log
 * `mem_kb_removed`; when the log was pruned past what the entry saw, it is read again.
 */
export type ScopeRows = Iterable<TermsRow>;

/** The rows of a cached scope holding one term (slots, some of removed rows), with frequencies. */
export interface Posting {
  readonly slots: number[];
  readonly tfs: number[];
}

/** A large cached scope's postings: rows by dense slot (undefined once removed), scratch arrays. */
export interface ScopeIndex {
  readonly postings: Map<number, Posting>;
  readonly bySlot: (TermsRow | undefined)[];
  readonly slotOf: Map<number, number>;
  scores: Float64Array;
  stamps: Uint32Array;
  stamp: number;
}

/**
 * What a search reads of a scope: every row (`rows`, to scan), or, for a large scope searched
 * before, its postings and rows by id (`postings`: only rows holding a query term are visited).
 */
export type ScopeView =
  | { readonly rows: ScopeRows; readonly index?: undefined }
  | {
      readonly rows: ReadonlyMap<number, TermsRow>;
      readonly index: ScopeIndex;
    };

interface Entry {
  readonly rows: Map<number, TermsRow>;
  /** Term id → the rows holding it and its frequency in each (built on the second search). */
  index: ScopeIndex | undefined;
  /** Rows removed since the postings were built (their ids stay in them, skipped). */
  removedSince: number;
  readonly collection: number;
  readonly scope: Scope;
  /** The largest mem_kb_chunks.id (of any collection) already looked at. */
  watermark: number;
  /** The last mem_kb_removed.seq applied. */
  removedSeq: number;
}

const caches = new WeakMap<Database, Map<string, Entry>>();

/** Cached rows, all entries of a connection together. */
const cachedRows = new WeakMap<Map<string, Entry>, { count: number }>();

/**
 * The rows of `scope` in `collection`, from the cache or the file (inside a read transaction):
 * to scan, or with postings for a large scope searched before.
 */
export function scopeRows(
  db: Database,
  st: KnowledgeStatements,
  collection: number,
  scope: Scope,
): ScopeView {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = new Map();
    caches.set(db, cache);
    cachedRows.set(cache, { count: 0 });
  }
  const total = cachedRows.get(cache) as { count: number };
  const key = JSON.stringify([collection, scope.sessionId ?? null, scope.userId ?? null]);
  const found = cache.get(key);
  if (found !== undefined) {
    cache.delete(key);
    total.count -= found.rows.size;
    if (catchUp(st, found)) {
      keep(cache, total, key, found);
      return view(found);
    }
  }
  const watermark = st.lastChunkId.get() ?? 0;
  const removedSeq = st.removedRange.get({})?.last ?? 0;
  const rows = new Map<number, TermsRow>();
  for (const row of readScope(st, collection, scope)) rows.set(row[0], cached(row));
  const entry = newEntry(collection, scope, rows, watermark, removedSeq);
  keep(cache, total, key, entry);
  return { rows: rows.values() };
}

function readScope(
  st: KnowledgeStatements,
  collection: number,
  scope: Scope,
): readonly StoredTermsRow[] {
  const { sessionId: sid, userId: user } = scope;
  if (sid === undefined) return st.userTerms.all({ collection, user });
  if (user === undefined) return st.sessionTerms.all({ collection, sid });
  return st.sessionUserTerms.all({ collection, sid, user });
}

function newEntry(
  collection: number,
  scope: Scope,
  rows: Map<number, TermsRow>,
  watermark: number,
  removedSeq: number,
): Entry {
  return { collection, scope, rows, watermark, removedSeq, index: undefined, removedSince: 0 };
}

/** A cached entry to scan, or with its postings (built here on its second search). */
function view(entry: Entry): ScopeView {
  const { rows } = entry;
  if (rows.size < POSTINGS_FROM) return { rows: rows.values() };
  if (entry.index === undefined || entry.removedSince > rows.size / 2) {
    const index: ScopeIndex = {
      postings: new Map(),
      bySlot: [],
      slotOf: new Map(),
      scores: new Float64Array(0),
      stamps: new Uint32Array(0),
      stamp: 0,
    };
    for (const row of rows.values()) post(index, row);
    entry.index = index;
    entry.removedSince = 0;
  }
  const { index } = entry;
  if (index.scores.length < index.bySlot.length) {
    const size = Math.max(index.bySlot.length, index.scores.length * 2);
    index.scores = new Float64Array(size);
    index.stamps = new Uint32Array(size);
    index.stamp = 0;
  }
  return { rows, index };
}

/** Gives a row the next slot and lists it under each of its term ids, with the frequency. */
function post(index: ScopeIndex, row: TermsRow): void {
  const slot = index.bySlot.length;
  index.bySlot.push(row);
  index.slotOf.set(row[0], slot);
  const words = row[3];
  const n = words.length >>> 1;
  for (let i = 0; i < n; i++) {
    const term = words[i] as number;
    const posting = index.postings.get(term);
    if (posting === undefined) {
      index.postings.set(term, { slots: [slot], tfs: [words[n + i] as number] });
    } else {
      posting.slots.push(slot);
      posting.tfs.push(words[n + i] as number);
    }
  }
}

/** Keeps an entry as the newest, dropping the oldest ones beyond the cache's size. */
function keep(cache: Map<string, Entry>, total: { count: number }, key: string, entry: Entry) {
  if (entry.rows.size > SCOPE_CACHE_CHUNKS) return;
  cache.set(key, entry);
  total.count += entry.rows.size;
  for (const [oldKey, old] of cache) {
    if (total.count <= SCOPE_CACHE_CHUNKS) break;
    cache.delete(oldKey);
    total.count -= old.rows.size;
  }
}

/** Applies the commits since the entry was read; false when the tombstone log cannot tell. */
function catchUp(st: KnowledgeStatements, entry: Entry): boolean {
  const { first, last } = st.removedRange.get({}) ?? { first: null, last: null };
  if (last !== null && last > entry.removedSeq) {
    if (first !== null && entry.removedSeq < first - 1) return false;
    for (const tomb of st.removedAfter.all({ seq: entry.removedSeq })) {
      if (tomb.collection === entry.collection && entry.rows.delete(tomb.chunk)) {
        entry.removedSince++;
        const slot = entry.index?.slotOf.get(tomb.chunk);
        if (entry.index !== undefined && slot !== undefined) {
          entry.index.bySlot[slot] = undefined;
          entry.index.slotOf.delete(tomb.chunk);
        }
      }
    }
    entry.removedSeq = last;
  }
  const watermark = st.lastChunkId.get() ?? 0;
  if (watermark > entry.watermark) {
    const { sessionId, userId } = entry.scope;
    for (const row of st.termsAfter.all({ after: entry.watermark, collection: entry.collection })) {
      if (sessionId !== undefined && row[4] !== sessionId) continue;
      if (userId !== undefined && row[5] !== userId) continue;
      const kept = cached(row);
      entry.rows.set(row[0], kept);
      if (entry.index !== undefined) post(entry.index, kept);
    }
    entry.watermark = watermark;
  }
  return true;
}

/** A stored row as the cache keeps it, its terms as uint32 words. */
function cached(row: StoredTermsRow): TermsRow {
  return [row[0], row[1], row[2], termWords(row[3])];
}
