import type { Database } from 'better-sqlite3';
import { prepareKnowledgeStatements } from './kb-statements.ts';
import { backfillTerms } from './kb-terms.ts';

/**
 * Schema migrations, one per version: `MIGRATIONS[i]` takes the schema from version `i` to
 * `i + 1` (`PRAGMA user_version`). Never edit a shipped migration; append a new one.
 *
 * Sessions are keyed by `(namespace, session_id)`, so stores of many tenants share one file; the
 * other tables refer to a session by its integer `mem_sessions.id`.
 */
export const MIGRATIONS: readonly string[] = [
  `
  -- One row per session. sort_key is the id as UTF-16BE (unique per id, sorts like JavaScript),
  -- so UNIQUE (namespace, sort_key) both finds a session and lists a namespace in order. Every
  -- other table refers to a session by its integer id: rows and index entries stay small, and an
  -- append touches few pages.
  CREATE TABLE mem_sessions (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    session_id TEXT NOT NULL,
    sort_key BLOB NOT NULL,
    live INTEGER NOT NULL,
    version INTEGER NOT NULL,
    epoch INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    message_count INTEGER NOT NULL,
    token_count INTEGER NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    expires_at REAL,
    UNIQUE (namespace, sort_key)
  );
  CREATE INDEX mem_sessions_expiry ON mem_sessions (namespace, expires_at)
    WHERE expires_at IS NOT NULL;

  -- A rowid table: appends land at the end of its B-tree (SQLite's quick balance), and its interior
  -- pages hold rowids only (a WITHOUT ROWID table would copy the ~400-byte rows into them). Reads
  -- go through (session, seq); (session, id) enforces per-session id uniqueness as rows go in.
  CREATE TABLE mem_messages (
    session INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    id TEXT NOT NULL,
    token_count INTEGER NOT NULL,
    json TEXT NOT NULL
  );
  CREATE UNIQUE INDEX mem_messages_seq ON mem_messages (session, seq);
  CREATE UNIQUE INDEX mem_messages_id ON mem_messages (session, id);

  CREATE TABLE mem_archive (
    session INTEGER NOT NULL,
    summary_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    id TEXT NOT NULL,
    json TEXT NOT NULL
  );
  CREATE INDEX mem_archive_summary ON mem_archive (session, summary_id);
  CREATE INDEX mem_archive_id ON mem_archive (session, id);

  CREATE TABLE mem_summaries (
    session INTEGER NOT NULL,
    summary_id TEXT NOT NULL,
    json TEXT NOT NULL,
    UNIQUE (session, summary_id)
  );

  -- Keyed by the key itself (one B-tree, no rowid). ord orders a session's keys oldest first:
  -- the version an append recorded, negative for keys imported from a snapshot.
  CREATE TABLE mem_idempotency (
    session INTEGER NOT NULL,
    key TEXT NOT NULL,
    ord INTEGER NOT NULL,
    version INTEGER NOT NULL,
    epoch INTEGER NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    PRIMARY KEY (session, key)
  ) WITHOUT ROWID;
  `,
  `
  CREATE TABLE mem_kb_collections (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    collection_id TEXT NOT NULL,
    UNIQUE (namespace, collection_id)
  );

  CREATE TABLE mem_kb_chunks (
    id INTEGER PRIMARY KEY,
    collection INTEGER NOT NULL REFERENCES mem_kb_collections (id),
    session_id TEXT NOT NULL,
    chunk_id TEXT NOT NULL,
    created_at REAL NOT NULL,
    json TEXT NOT NULL,
    UNIQUE (collection, session_id, chunk_id)
  );

  -- rowid = mem_kb_chunks.id; body is the analyzed text (see fts-query.ts). 'scope' holds one
  -- token per collection ('c' + its id), so a search only visits its own collection's postings.
  -- A regular (not contentless) table: deleting a row must take its tokens out of the document
  -- count and average length bm25() uses, which a contentless table cannot do (re-adding the
  -- same chunks made their scores drift).
  CREATE VIRTUAL TABLE mem_kb_fts USING fts5 (
    scope, body, tokenize = 'unicode61 remove_diacritics 2'
  );

  -- Vectors (only with an embedder). One vec0 table, mem_kb_vec_<id>, per embedder id and
  -- dimensions, created on first use because vec0 needs the sqlite-vec extension; its rowid is
  -- mem_kb_chunks.id. A namespace is bound to one space, so vectors of two embedders never mix.
  CREATE TABLE mem_kb_vector_spaces (
    id INTEGER PRIMARY KEY,
    embedder_id TEXT NOT NULL,
    dimensions INTEGER NOT NULL,
    UNIQUE (embedder_id, dimensions)
  );
  CREATE TABLE mem_kb_namespace_vectors (
    namespace TEXT PRIMARY KEY,
    space INTEGER NOT NULL REFERENCES mem_kb_vector_spaces (id)
  ) WITHOUT ROWID;
  `,
  `
  -- In-memory BM25 mirrors (kb-mirror.ts) catch up with other connections' writes: additions
  -- are the chunk rows with an id above the largest they saw, deletions come from a tombstone
  -- log. For the first, ids must never be reused (SQLite otherwise gives a new row the largest
  -- id + 1, an id a deleted row may have had): mem_kb_chunks becomes AUTOINCREMENT, same rows
  -- and ids (the FTS and vector rows refer to them).
  CREATE TABLE mem_kb_chunks_v3 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    collection INTEGER NOT NULL REFERENCES mem_kb_collections (id),
    session_id TEXT NOT NULL,
    chunk_id TEXT NOT NULL,
    created_at REAL NOT NULL,
    json TEXT NOT NULL,
    UNIQUE (collection, session_id, chunk_id)
  );
  INSERT INTO mem_kb_chunks_v3 (id, collection, session_id, chunk_id, created_at, json)
    SELECT id, collection, session_id, chunk_id, created_at, json FROM mem_kb_chunks;
  DROP TABLE mem_kb_chunks;
  ALTER TABLE mem_kb_chunks_v3 RENAME TO mem_kb_chunks;

  -- Tombstones: one row per chunk row deleted (by delete, or replaced by add), written in the
  -- deleting transaction. seq never repeats, and only the oldest rows are pruned, so the log is
  -- one contiguous range: a mirror whose last seq is below it rebuilds.
  CREATE TABLE mem_kb_removed (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    collection INTEGER NOT NULL,
    chunk INTEGER NOT NULL
  );
  `,
  `
  -- Compaction deletes a folded summary's chunks by summary id: a column (from the chunk's
  -- metadata.summaryId) and a partial index find them without reading and parsing every chunk
  -- of the session inside the write transaction.
  ALTER TABLE mem_kb_chunks ADD COLUMN summary_id TEXT;
  UPDATE mem_kb_chunks SET summary_id = json_extract(json, '$.metadata.summaryId')
    WHERE json_valid(json) AND json_type(json, '$.metadata.summaryId') = 'text';
  CREATE INDEX mem_kb_chunks_summary ON mem_kb_chunks (collection, session_id, summary_id)
    WHERE summary_id IS NOT NULL;
  `,
  `
  -- Users (Store v3, KnowledgeBase v2). A session may belong to one user: NULL for none (every
  -- session stored before this version). The partial index lists a user's sessions in id order
  -- (the same order as list() of a namespace) and finds them for forgetUser.
  ALTER TABLE mem_sessions ADD COLUMN user_id TEXT;
  CREATE INDEX mem_sessions_user ON mem_sessions (namespace, user_id, sort_key)
    WHERE user_id IS NOT NULL;

  -- A user's facts: one JSON array, replaced whole with compare-and-swap on version. An empty
  -- write keeps the row with facts '[]' (a tombstone), so the version keeps growing and a writer
  -- that read before it still loses; forgetUser deletes the row.
  CREATE TABLE mem_user_facts (
    namespace TEXT NOT NULL,
    user_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    facts TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (namespace, user_id)
  ) WITHOUT ROWID;

  -- A chunk's metadata.userId as a column, so searches, counts and deletes by user find a
  -- user's chunks by index instead of parsing every chunk.
  ALTER TABLE mem_kb_chunks ADD COLUMN user_id TEXT;
  UPDATE mem_kb_chunks SET user_id = json_extract(json, '$.metadata.userId')
    WHERE json_valid(json) AND json_type(json, '$.metadata.userId') = 'text';
  CREATE INDEX mem_kb_chunks_user ON mem_kb_chunks (collection, user_id)
    WHERE user_id IS NOT NULL;
  `,
  `
  -- What BM25 needs, kept in the file (kb-terms.ts), so that a search scoped to a session or a
  -- user reads its scope's rows instead of building an in-memory index of the whole collection
  -- on each connection. Chunks already in the file are analyzed by the migration (BACKFILLS).
  CREATE TABLE mem_kb_stats (
    collection INTEGER PRIMARY KEY REFERENCES mem_kb_collections (id),
    documents INTEGER NOT NULL,
    length INTEGER NOT NULL
  );
  -- A term's id (per collection) is what mem_kb_terms stores; an id no chunk holds any more
  -- (documents 0) is deleted and may be given to another term.
  CREATE TABLE mem_kb_df (
    id INTEGER PRIMARY KEY,
    collection INTEGER NOT NULL,
    term TEXT NOT NULL,
    documents INTEGER NOT NULL,
    UNIQUE (collection, term)
  );
  -- id = mem_kb_chunks.id. terms: the chunk's distinct term ids (mem_kb_df.id), ascending, as
  -- uint32 little-endian, then each one's frequency, in the same order, as uint32 little-endian.
  CREATE TABLE mem_kb_terms (
    id INTEGER PRIMARY KEY,
    collection INTEGER NOT NULL,
    session_id TEXT NOT NULL,
    chunk_id TEXT NOT NULL,
    user_id TEXT,
    created_at REAL NOT NULL,
    length INTEGER NOT NULL,
    terms BLOB NOT NULL
  );
  `,
];

/**
 * Work a migration needs beyond SQL, run right after it in the same transaction: by the version
 * the migration takes the schema to.
 */
const BACKFILLS: Readonly<Record<number, (db: Database) => void>> = {
  6: (db) => backfillTerms(prepareKnowledgeStatements(db)),
};

/** The schema version this package writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the schema up to `SCHEMA_VERSION` in one IMMEDIATE transaction: the write lock is taken
 * before `user_version` is read, so processes opening the same file at once apply each migration
 * exactly once (the others wait on the busy timeout, then see the new version and do nothing).
 *
 * @throws Error when the file was written by a newer version of this package.
 */
export function migrate(db: Database): void {
  const current = () => db.pragma('user_version', { simple: true }) as number;
  if (current() === SCHEMA_VERSION) return;
  db.transaction(() => {
    const from = current();
    if (from > SCHEMA_VERSION) {
      throw new Error(
        `schema version ${from} is newer than this package supports (${SCHEMA_VERSION}); upgrade @mem/store-sqlite`,
      );
    }
    for (let version = from; version < SCHEMA_VERSION; version++) {
      db.exec(MIGRATIONS[version] as string);
      BACKFILLS[version + 1]?.(db);
    }
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
