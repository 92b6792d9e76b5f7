import { Bm25Index, type IndexedChunk, type KnowledgeChunk } from '@mem/core/backend';
import type { Database } from 'better-sqlite3';
import type { ChunkRow, KnowledgeStatements } from './kb-statements.ts';

/**
 * Tombstones kept in `mem_kb_removed` (the newest ones). A mirror that has not caught up for
 * longer than that many deletions (any collection) rebuilds instead.
 */
export const REMOVED_LOG_KEEP = 10_000;

/**
 * An in-memory BM25 index (core's `Bm25Index`, as in the in-memory knowledge base) of one
 * collection, mirroring its rows in `mem_kb_chunks`. SQLite stays the source of truth:
 *
 * - the first search of a collection on a connection builds it from the rows;
 * - a write of this connection updates it right after its COMMIT (`KbWrite`), having first
 *   caught up under the write lock, so it is exact again;
 * - any other connection's commit changes `PRAGMA data_version`, and the next search (or write)
 *   catches up inside its transaction, from one snapshot: deletions from the tombstone log
 *   `mem_kb_removed` after `removedSeq`, then the collection's rows with an id above
 *   `watermark` (ids are never reused), or rebuilds when the log was pruned past `removedSeq`.
 */
export interface Mirror {
  readonly index: Bm25Index;
  /** mem_kb_chunks.id → its entry in `index`. */
  readonly byRow: Map<number, IndexedChunk>;
  /** The largest mem_kb_chunks.id (of any collection) already looked at. */
  watermark: number;
  /** The last mem_kb_removed.seq applied. */
  removedSeq: number;
  /** `PRAGMA data_version` of the snapshot the mirror matches. */
  dataVersion: number;
  /** Set when an update failed half-way: the next use rebuilds it. */
  stale: boolean;
}

/** What one write of this connection changed in a collection, to apply after its COMMIT. */
export interface OwnWrite {
  /** Row ids deleted (deleted or replaced chunks). */
  readonly removed: number[];
  /** Rows inserted, with their chunks. */
  readonly added: { id: number; chunk: KnowledgeChunk }[];
  /** The last tombstone seq the write logged (0: none). */
  lastSeq: number;
}

/** Mirrors per connection (data_version only sees other connections), by collection row id. */
const mirrors = new WeakMap<Database, Map<number, Mirror>>();

function mirrorsOf(db: Database): Map<number, Mirror> {
  let byCollection = mirrors.get(db);
  if (byCollection === undefined) {
    byCollection = new Map();
    mirrors.set(db, byCollection);
  }
  return byCollection;
}

/**
 * The mirror of `collection`, built or caught up with the transaction's snapshot. Call inside
 * a transaction (a search's read, or a write before it changes anything).
 */
export function currentMirror(db: Database, st: KnowledgeStatements, collection: number): Mirror {
  const byCollection = mirrorsOf(db);
  const found = byCollection.get(collection);
  if (found !== undefined && !found.stale && catchUp(st, collection, found)) return found;
  const built = build(st, collection);
  byCollection.set(collection, built);
  return built;
}

/**
 * For a write (inside its transaction, before it changes anything): the mirror of `collection`
 * caught up, or undefined when there is none to keep in step. A mirror the log cannot bring up
 * to date is dropped rather than rebuilt under the write lock; the next search rebuilds it.
 */
export function existingMirror(
  db: Database,
  st: KnowledgeStatements,
  collection: number,
): Mirror | undefined {
  const byCollection = mirrors.get(db);
  const found = byCollection?.get(collection);
  if (found === undefined) return undefined;
  if (!found.stale && catchUp(st, collection, found)) return found;
  byCollection?.delete(collection);
  return undefined;
}

/**
 * Applies a committed write of this connection to the mirror caught up inside it. The write held
 * the lock, so no other commit came in between: the mirror is exact again. Never throws (the
 * write is already committed); a failure marks the mirror stale, to be rebuilt.
 */
export function applyOwnWrite(mirror: Mirror | undefined, write: OwnWrite): void {
  if (mirror === undefined) return;
  try {
    removeRows(mirror, write.removed);
    insertChunks(mirror, write.added);
    for (const { id } of write.added) if (id > mirror.watermark) mirror.watermark = id;
    mirror.removedSeq = Math.max(mirror.removedSeq, write.lastSeq);
  } catch {
    mirror.stale = true;
  }
}

function build(st: KnowledgeStatements, collection: number): Mirror {
  const dataVersion = st.dataVersion.get() as number;
  const mirror: Mirror = {
    index: new Bm25Index(),
    byRow: new Map(),
    watermark: st.lastChunkId.get() ?? 0,
    removedSeq: st.removedRange.get({})?.last ?? 0,
    dataVersion,
    stale: false,
  };
  insertRows(mirror, st.collectionRows.all({ collection }));
  return mirror;
}

/** Applies other connections' commits; false when the tombstone log cannot tell (rebuild). */
function catchUp(st: KnowledgeStatements, collection: number, mirror: Mirror): boolean {
  const dataVersion = st.dataVersion.get() as number;
  if (dataVersion === mirror.dataVersion) return true;
  const { first, last } = st.removedRange.get({}) ?? { first: null, last: null };
  if (first !== null && mirror.removedSeq < first - 1) return false;
  const removed: number[] = [];
  if (last !== null && last > mirror.removedSeq) {
    for (const tomb of st.removedAfter.all({ seq: mirror.removedSeq })) {
      if (tomb.collection === collection) removed.push(tomb.chunk);
    }
  }
  // Chunk ids are never reused (AUTOINCREMENT): every row added since has a larger id.
  const watermark = st.lastChunkId.get() ?? 0;
  const rows =
    watermark > mirror.watermark ? st.rowsAfter.all({ after: mirror.watermark, collection }) : [];
  removeRows(mirror, removed);
  insertRows(mirror, rows);
  mirror.watermark = Math.max(mirror.watermark, watermark);
  mirror.removedSeq = Math.max(mirror.removedSeq, last ?? 0);
  mirror.dataVersion = dataVersion;
  return true;
}

/** Takes rows out of the mirror (ids it does not hold are ignored). */
function removeRows(mirror: Mirror, ids: readonly number[]): void {
  const entries: IndexedChunk[] = [];
  for (const id of ids) {
    const entry = mirror.byRow.get(id);
    if (entry === undefined) continue;
    mirror.byRow.delete(id);
    entries.push(entry);
  }
  if (entries.length > 0) mirror.index.remove(entries);
}

/** Adds chunks (rows read back, or just written) under their row ids. */
function insertChunks(mirror: Mirror, rows: readonly { id: number; chunk: KnowledgeChunk }[]) {
  if (rows.length === 0) return;
  mirror.index.add(rows.map((row) => row.chunk));
  for (const { id, chunk } of rows) {
    const entry = mirror.index.sessions.get(chunk.metadata.sessionId)?.get(chunk.id);
    if (entry !== undefined) mirror.byRow.set(id, entry);
  }
}

/** Rows whose JSON is not a chunk (not written by this package) are left out, as the statistics leave them out. */
function insertRows(mirror: Mirror, rows: readonly ChunkRow[]): void {
  const chunks: { id: number; chunk: KnowledgeChunk }[] = [];
  for (const row of rows) {
    const chunk = parseChunkRow(row.json);
    if (chunk !== undefined) chunks.push({ id: row.id, chunk });
  }
  insertChunks(mirror, chunks);
}

/** A stored row's chunk, or undefined when its JSON is not a chunk (not written by this package). */
export function parseChunkRow(json: string): KnowledgeChunk | undefined {
  try {
    const chunk = JSON.parse(json) as KnowledgeChunk;
    return typeof chunk?.text === 'string' && typeof chunk.metadata?.sessionId === 'string'
      ? chunk
      : undefined;
  } catch {
    return undefined;
  }
}
