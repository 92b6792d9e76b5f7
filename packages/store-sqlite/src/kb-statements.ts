import type { Database } from 'better-sqlite3';

interface Prepared<R> {
  run(params: object): { changes: number; lastInsertRowid: number | bigint };
  get(params: object): R | undefined;
  all(params: object): R[];
}

/** A statement without parameters read for its first column. */
interface PreparedValue<R> {
  get(): R | undefined;
}

export interface ChunkRow {
  id: number;
  json: string;
}

/**
 * A chunk row's entry in `mem_kb_terms` as a scoped search reads it (a raw row): its id, created
 * at, analyzed length, and term ids ascending (uint32 LE) then their frequencies (uint32 LE): see
 * kb-terms.ts. Rows read to catch up also carry the session and user ids after these.
 */
export type StoredTermsRow = readonly [
  id: number,
  createdAt: number,
  length: number,
  terms: Buffer,
  ...rest: unknown[],
];
/** A row as the scope cache keeps it: the terms as uint32 words (`termWords`). */
export type TermsRow = readonly [id: number, createdAt: number, length: number, terms: Uint32Array];

const TERMS_COLUMNS = 't.id, t.created_at, t.length, t.terms';

/** Every SQL statement the knowledge base runs, prepared once per connection; values are bound. */
export function prepareKnowledgeStatements(db: Database) {
  const p = <R = unknown>(sql: string): Prepared<R> => db.prepare<unknown[], R>(sql);
  const value = <R>(sql: string): PreparedValue<R> => db.prepare<[], R>(sql).pluck();
  const raw = <R>(sql: string): Prepared<R> => db.prepare(sql).raw() as unknown as Prepared<R>;
  return {
    collection: p<{ id: number }>(
      'SELECT id FROM mem_kb_collections WHERE namespace = @ns AND collection_id = @collectionId',
    ),
    insertCollection: p(
      'INSERT INTO mem_kb_collections (namespace, collection_id) VALUES (@ns, @collectionId)',
    ),
    chunkRowId: p<{ id: number }>(
      'SELECT id FROM mem_kb_chunks WHERE collection = @collection AND session_id = @sid AND chunk_id = @chunkId',
    ),
    insertChunk: p(
      `INSERT INTO mem_kb_chunks
         (collection, session_id, chunk_id, created_at, json, summary_id, user_id)
       VALUES (@collection, @sid, @chunkId, @createdAt, @json, @summaryId, @user)`,
    ),
    insertText: p('INSERT INTO mem_kb_fts (rowid, scope, body) VALUES (@id, @scope, @body)'),
    deleteChunk: p('DELETE FROM mem_kb_chunks WHERE id = @id'),
    deleteText: p('DELETE FROM mem_kb_fts WHERE rowid = @id'),
    /**
     * Chunks of a session whose metadata.summaryId is in `ids` (a JSON array), by index; only
     * those of user `@user` unless it is null.
     */
    summaryChunks: p<{ id: number }>(
      `SELECT id FROM mem_kb_chunks
       WHERE collection = @collection AND session_id = @sid AND summary_id IS NOT NULL
         AND summary_id IN (SELECT value FROM json_each(@ids))
         AND (@user IS NULL OR user_id = @user)`,
    ),
    sessionChunks: p<{ id: number; json: string }>(
      'SELECT id, json FROM mem_kb_chunks WHERE collection = @collection AND session_id = @sid',
    ),
    /** Every chunk of a user in the collection, whatever its session (by index). */
    userChunks: p<{ id: number; json: string }>(
      'SELECT id, json FROM mem_kb_chunks WHERE collection = @collection AND user_id = @user',
    ),
    hasVectors: p<{ space: number }>(
      'SELECT space FROM mem_kb_namespace_vectors WHERE namespace = @ns',
    ),
    countAll: p<{ n: number }>(
      'SELECT count(*) AS n FROM mem_kb_chunks WHERE collection = @collection',
    ),
    countSession: p<{ n: number }>(
      'SELECT count(*) AS n FROM mem_kb_chunks WHERE collection = @collection AND session_id = @sid',
    ),
    countUser: p<{ n: number }>(
      'SELECT count(*) AS n FROM mem_kb_chunks WHERE collection = @collection AND user_id = @user',
    ),
    countSessionUser: p<{ n: number }>(
      `SELECT count(*) AS n FROM mem_kb_chunks
       WHERE collection = @collection AND session_id = @sid AND user_id = @user`,
    ),
    // BM25 statistics kept in the file (kb-terms.ts).
    insertTerms: p(
      `INSERT INTO mem_kb_terms
         (id, collection, session_id, chunk_id, user_id, created_at, length, terms)
       VALUES (@id, @collection, @sid, @chunkId, @user, @createdAt, @length, @terms)`,
    ),
    termsOf: p<{ terms: Buffer; length: number }>(
      'SELECT terms, length FROM mem_kb_terms WHERE id = @id',
    ),
    deleteTerms: p('DELETE FROM mem_kb_terms WHERE id = @id'),
    /** Counts `@n` more chunks holding the term; gives the term's id in the collection. */
    incrementDf: p<{ id: number }>(
      `INSERT INTO mem_kb_df (collection, term, documents) VALUES (@collection, @term, @n)
       ON CONFLICT (collection, term) DO UPDATE SET documents = documents + excluded.documents
       RETURNING id`,
    ),
    decrementDf: p<{ documents: number }>(
      'UPDATE mem_kb_df SET documents = documents - 1 WHERE id = @id RETURNING documents',
    ),
    deleteDf: p('DELETE FROM mem_kb_df WHERE id = @id'),
    addStats: p(
      `INSERT INTO mem_kb_stats (collection, documents, length) VALUES (@collection, @documents, @length)
       ON CONFLICT (collection) DO UPDATE
         SET documents = documents + excluded.documents, length = length + excluded.length`,
    ),
    stats: p<{ documents: number; length: number }>(
      'SELECT documents, length FROM mem_kb_stats WHERE collection = @collection',
    ),
    /** Document frequencies of the terms of `@terms` (a JSON array) the collection holds. */
    dfOf: p<{ id: number; term: string; documents: number }>(
      `SELECT id, term, documents FROM mem_kb_df
       WHERE collection = @collection AND term IN (SELECT value FROM json_each(@terms))`,
    ),
    // A scope's rows, found through mem_kb_chunks' indexes (which hold the row id).
    sessionTerms: raw<StoredTermsRow>(
      `SELECT ${TERMS_COLUMNS} FROM mem_kb_chunks c JOIN mem_kb_terms t ON t.id = c.id
       WHERE c.collection = @collection AND c.session_id = @sid`,
    ),
    userTerms: raw<StoredTermsRow>(
      `SELECT ${TERMS_COLUMNS} FROM mem_kb_chunks c JOIN mem_kb_terms t ON t.id = c.id
       WHERE c.collection = @collection AND c.user_id = @user`,
    ),
    sessionUserTerms: raw<StoredTermsRow>(
      `SELECT ${TERMS_COLUMNS} FROM mem_kb_chunks c JOIN mem_kb_terms t ON t.id = c.id
       WHERE c.collection = @collection AND c.session_id = @sid AND t.user_id = @user`,
    ),
    /** Term rows of a collection added after row `@after`, with session and user (catching up). */
    termsAfter: raw<[...StoredTermsRow, string, string | null]>(
      `SELECT ${TERMS_COLUMNS}, t.session_id, t.user_id FROM mem_kb_terms t
       WHERE t.id > @after AND +t.collection = @collection ORDER BY t.id`,
    ),
    /** A term row's chunk id and session id (to order hits of equal score and time). */
    chunkKey: raw<[string, string]>('SELECT chunk_id, session_id FROM mem_kb_terms WHERE id = @id'),
    chunkJson: p<{ json: string }>('SELECT json FROM mem_kb_chunks WHERE id = @id'),
    chunkRowsPage: p<{ id: number; collection: number; json: string }>(
      'SELECT id, collection, json FROM mem_kb_chunks WHERE id > @after ORDER BY id LIMIT @limit',
    ),
    // The in-memory BM25 mirror (kb-mirror.ts) reads these.
    dataVersion: value<number>('PRAGMA data_version'),
    collectionRows: p<ChunkRow>(
      'SELECT id, json FROM mem_kb_chunks WHERE collection = @collection ORDER BY id',
    ),
    // '+collection' keeps SQLite on the rowid range: the rows added since `after`, not a scan of
    // the collection through its index.
    rowsAfter: p<ChunkRow>(
      'SELECT id, json FROM mem_kb_chunks WHERE id > @after AND +collection = @collection ORDER BY id',
    ),
    lastChunkId: value<number | null>('SELECT max(id) FROM mem_kb_chunks'),
    insertRemoved: p('INSERT INTO mem_kb_removed (collection, chunk) VALUES (@collection, @id)'),
    removedAfter: p<{ collection: number; chunk: number }>(
      'SELECT collection, chunk FROM mem_kb_removed WHERE seq > @seq ORDER BY seq',
    ),
    removedRange: p<{ first: number | null; last: number | null }>(
      `SELECT (SELECT min(seq) FROM mem_kb_removed) AS first,
              (SELECT max(seq) FROM mem_kb_removed) AS last`,
    ),
    pruneRemoved: p('DELETE FROM mem_kb_removed WHERE seq <= @upTo'),
  };
}

export type KnowledgeStatements = ReturnType<typeof prepareKnowledgeStatements>;
