import type { Database } from 'better-sqlite3';
import type { KnowledgeStatements, StoredTermsRow, TermsRow } from './kb-statements.ts';
import { termWords } from './kb-term-words.ts';

/**
 * Most chunk rows a connection keeps in its scope cache, all scopes together (about 8 bytes per
 * distinct term of a chunk plus ~150 bytes: ~0.6 kB for three dialogue turns). A scope with more
 * rows is read from the file on every search.
 */
export const SCOPE_CACHE_CHUNKS = 50_000;

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

interface Entry {
  readonly rows: Map<number, TermsRow>;
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

/** The rows of `scope` in `collection`, from the cache or the file (inside a read transaction). */
export function scopeRows(
  db: Database,
  st: KnowledgeStatements,
  collection: number,
  scope: Scope,
): ScopeRows {
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
      return found.rows.values();
    }
  }
  const watermark = st.lastChunkId.get() ?? 0;
  const removedSeq = st.removedRange.get({})?.last ?? 0;
  const rows = new Map<number, TermsRow>();
  for (const row of readScope(st, collection, scope)) rows.set(row[0], cached(row));
  const entry = newEntry(collection, scope, rows, watermark, removedSeq);
  keep(cache, total, key, entry);
  return rows.values();
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
  return { collection, scope, rows, watermark, removedSeq };
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
      if (tomb.collection === entry.collection) remove(entry, tomb.chunk);
    }
    entry.removedSeq = last;
  }
  const watermark = st.lastChunkId.get() ?? 0;
  if (watermark > entry.watermark) {
    const { sessionId, userId } = entry.scope;
    for (const row of st.termsAfter.all({ after: entry.watermark, collection: entry.collection })) {
      if (sessionId !== undefined && row[4] !== sessionId) continue;
      if (userId !== undefined && row[5] !== userId) continue;
      entry.rows.set(row[0], cached(row));
    }
    entry.watermark = watermark;
  }
  return true;
}

function remove(entry: Entry, id: number): void {
  entry.rows.delete(id);
}

/** A stored row as the cache keeps it, its terms as uint32 words. */
function cached(row: StoredTermsRow): TermsRow {
  return [row[0], row[1], row[2], termWords(row[3])];
}
