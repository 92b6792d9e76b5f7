import { MemConfigError, MemStoreError } from '@mem/core';
import type { Embedder } from '@mem/core/backend';
import type { Database } from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

/** sqlite-vec refuses a KNN `k` above this. */
export const MAX_KNN_K = 4096;

/** The vector space a namespace is bound to: an embedder id and its dimensions. */
export interface VectorSpace {
  id: number;
  embedderId: string;
  dimensions: number;
}

export interface VectorStatements {
  insert(id: number, collection: number, sessionId: string, vector: Float32Array): void;
  delete(id: number): void;
  /** The `k` nearest chunks of `collection` (and `sessionId`, and `userId`), nearest first. */
  nearest(
    query: Float32Array,
    k: number,
    collection: number,
    sessionId: string | undefined,
    userId: string | undefined,
  ): { id: number; json: string; distance: number | null }[];
}

const loaded = new WeakSet<Database>();
const prepared = new WeakMap<Database, Map<number, VectorStatements>>();

/** Loads sqlite-vec into `db` once (only knowledge bases with an embedder call this). */
export function loadVectorExtension(db: Database): void {
  if (loaded.has(db)) return;
  try {
    sqliteVec.load(db);
  } catch (error) {
    throw new MemStoreError(
      `[mem/sqlite] could not load the sqlite-vec extension, needed with an embedder: ${(error as Error).message}. Check that the sqlite-vec package for this platform is installed.`,
      { cause: error },
    );
  }
  loaded.add(db);
}

/** The space `namespace` is bound to, if any. */
export function boundSpace(db: Database, namespace: string): VectorSpace | undefined {
  return db
    .prepare<unknown[], VectorSpace>(
      `SELECT s.id AS id, s.embedder_id AS embedderId, s.dimensions AS dimensions
       FROM mem_kb_namespace_vectors n JOIN mem_kb_vector_spaces s ON s.id = n.space
       WHERE n.namespace = ?`,
    )
    .get(namespace);
}

/** @throws MemConfigError when `namespace` holds vectors of another embedder. */
export function assertSameSpace(
  space: VectorSpace | undefined,
  embedder: Embedder,
  namespace: string,
): void {
  if (space === undefined) return;
  if (space.embedderId === embedder.id && space.dimensions === embedder.dimensions) return;
  throw new MemConfigError(
    [
      {
        path: 'embedder',
        message: `namespace ${JSON.stringify(namespace)} holds vectors of embedder ${JSON.stringify(space.embedderId)} (${space.dimensions} dimensions), not ${JSON.stringify(embedder.id)} (${embedder.dimensions}); use that embedder, or another namespace or file`,
      },
    ],
    { source: 'createSqliteKnowledgeBase options' },
  );
}

/**
 * The space of `namespace`, binding it to `embedder`'s (and creating its vec0 table) on first
 * use. Call inside the write transaction. @throws MemConfigError on another embedder's space.
 */
export function bindSpace(db: Database, namespace: string, embedder: Embedder): VectorSpace {
  const bound = boundSpace(db, namespace);
  assertSameSpace(bound, embedder, namespace);
  if (bound !== undefined) return bound;
  const find = db.prepare<unknown[], { id: number }>(
    'SELECT id FROM mem_kb_vector_spaces WHERE embedder_id = ? AND dimensions = ?',
  );
  let id = find.get(embedder.id, embedder.dimensions)?.id;
  if (id === undefined) {
    id = Number(
      db
        .prepare('INSERT INTO mem_kb_vector_spaces (embedder_id, dimensions) VALUES (?, ?)')
        .run(embedder.id, embedder.dimensions).lastInsertRowid,
    );
    // Both values are integers checked here; the embedder id never becomes SQL text.
    db.exec(
      `CREATE VIRTUAL TABLE ${tableName(id)} USING vec0 (
        collection INTEGER PARTITION KEY,
        session_id TEXT,
        embedding FLOAT[${Math.trunc(embedder.dimensions)}] distance_metric=cosine
      )`,
    );
  }
  db.prepare('INSERT INTO mem_kb_namespace_vectors (namespace, space) VALUES (?, ?)').run(
    namespace,
    id,
  );
  return { id, embedderId: embedder.id, dimensions: embedder.dimensions };
}

/** Prepared statements of one space's vec0 table, once per connection. */
export function vectorStatements(db: Database, space: number): VectorStatements {
  let byTable = prepared.get(db);
  if (byTable === undefined) {
    byTable = new Map();
    prepared.set(db, byTable);
  }
  const cached = byTable.get(space);
  if (cached !== undefined) return cached;
  const table = tableName(space);
  const insert = db.prepare(
    `INSERT INTO ${table} (rowid, collection, session_id, embedding) VALUES (?, ?, ?, ?)`,
  );
  const del = db.prepare(`DELETE FROM ${table} WHERE rowid = ?`);
  // Partition key and metadata column filter inside the KNN scan, so a small collection (or
  // session) among big ones still gets its own k nearest, not what is left of the global ones.
  // A user's chunks are selected the same way, by a rowid set from mem_kb_chunks (its user_id
  // index): vec0 filters on `rowid IN (...)` inside the scan too, and tables created before
  // users existed need no new column.
  const knn = (where: string) =>
    db.prepare<unknown[], { id: number; json: string; distance: number | null }>(
      `WITH knn AS (
         SELECT rowid, distance FROM ${table}
         WHERE embedding MATCH ? AND k = ? AND collection = ? ${where}
       )
       SELECT c.id AS id, c.json AS json, knn.distance AS distance
       FROM knn JOIN mem_kb_chunks c ON c.id = knn.rowid`,
    );
  const all = knn('');
  const inSession = knn('AND session_id = ?');
  const ofUser = 'AND rowid IN (SELECT id FROM mem_kb_chunks WHERE collection = ? AND user_id = ?)';
  const userOnly = knn(ofUser);
  const inSessionOfUser = knn(`AND session_id = ? ${ofUser}`);
  const statements: VectorStatements = {
    insert: (id, collection, sessionId, vector) => {
      insert.run(BigInt(id), BigInt(collection), sessionId, vector);
    },
    delete: (id) => {
      del.run(BigInt(id));
    },
    nearest: (query, k, collection, sessionId, userId) => {
      const c = BigInt(collection);
      if (userId === undefined) {
        return sessionId === undefined
          ? all.all(query, k, c)
          : inSession.all(query, k, c, sessionId);
      }
      return sessionId === undefined
        ? userOnly.all(query, k, c, collection, userId)
        : inSessionOfUser.all(query, k, c, sessionId, collection, userId);
    },
  };
  byTable.set(space, statements);
  return statements;
}

function tableName(space: number): string {
  if (!Number.isSafeInteger(space)) throw new Error(`bad vector space id ${space}`);
  return `mem_kb_vec_${space}`;
}
