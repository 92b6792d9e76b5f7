import type { Database } from 'better-sqlite3';

interface Prepared<R> {
  run(params: object): { changes: number; lastInsertRowid: number | bigint };
  get(params: object): R | undefined;
  all(params: object): R[];
}

/** Every SQL statement the knowledge base runs, prepared once per connection; values are bound. */
export function prepareKnowledgeStatements(db: Database) {
  const p = <R = unknown>(sql: string): Prepared<R> => db.prepare<unknown[], R>(sql);
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
      `INSERT INTO mem_kb_chunks (collection, session_id, chunk_id, created_at, json)
       VALUES (@collection, @sid, @chunkId, @createdAt, @json)`,
    ),
    insertText: p('INSERT INTO mem_kb_fts (rowid, scope, body) VALUES (@id, @scope, @body)'),
    deleteChunk: p('DELETE FROM mem_kb_chunks WHERE id = @id'),
    deleteText: p('DELETE FROM mem_kb_fts WHERE rowid = @id'),
    sessionChunks: p<{ id: number; json: string }>(
      'SELECT id, json FROM mem_kb_chunks WHERE collection = @collection AND session_id = @sid',
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
    // bm25() is lower-is-better; the scope column gets weight 0 so only the text counts.
    search: p<{ id: number; json: string; score: number }>(
      `SELECT c.id AS id, c.json AS json, -bm25(mem_kb_fts, 0.0, 1.0) AS score
       FROM mem_kb_fts JOIN mem_kb_chunks c ON c.id = mem_kb_fts.rowid
       WHERE mem_kb_fts MATCH @match AND (@sid IS NULL OR c.session_id = @sid)
       ORDER BY score DESC, c.created_at DESC, c.chunk_id ASC
       LIMIT @topK`,
    ),
  };
}

export type KnowledgeStatements = ReturnType<typeof prepareKnowledgeStatements>;
