import {
  assertValidCollectionId,
  KNOWLEDGE_BASE_SPECIFICATION_VERSION,
  type KnowledgeBase,
  type KnowledgeChunk,
  type KnowledgeDeleteFilter,
  MemStoreError,
  parseChunks,
  parseCountFilter,
  parseDeleteFilter,
  parseQuery,
  parseSearchOptions,
} from '@mem/core';
import type { Database } from 'better-sqlite3';
import { type Connection, connect } from './connection.ts';
import { indexText, matchExpression } from './fts-query.ts';
import { type KnowledgeStatements, prepareKnowledgeStatements } from './kb-statements.ts';
import { checkSqliteStoreOptions, type SqliteSynchronous } from './sqlite-store-options.ts';

interface SqliteKnowledgeBaseCommonOptions {
  /** The tenant: 1-64 letters, digits, `_` or `-`. Default `'default'`. */
  namespace?: string;
  /** How long a write waits for another connection's write lock, in ms. Default 5,000. */
  busyTimeoutMs?: number;
  /** Durability of a commit (see the README). Default `'NORMAL'`. */
  synchronous?: SqliteSynchronous;
}

export type SqliteKnowledgeBaseOptions = SqliteKnowledgeBaseCommonOptions &
  ({ path: string; database?: never } | { database: Database; path?: never });

/**
 * A `KnowledgeBase` (spec `mem.kb.v1`) on SQLite FTS5, ranked with BM25 (`bm25()`), durable
 * when given a file. It can share a file (or a connection) with `createSqliteStore`.
 *
 * - Text is analyzed like the in-memory knowledge base (`analyzeText`: folded, stopwords dropped,
 *   compounds kept whole and split, CJK bigrams) and indexed in a contentless FTS5 table with the
 *   `unicode61 remove_diacritics 2` tokenizer; chunks and their metadata live in a plain table.
 * - A query becomes an OR of quoted terms, scoped to its collection: user text is never FTS5
 *   syntax. Ties go to the newer chunk (`metadata.createdAt`), then the smaller id.
 * - BM25 statistics (document count, average length, term rarity) are those of the whole FTS
 *   table, i.e. of every collection in the file; rankings within a collection stay sensible,
 *   scores are comparable only within one result list (as the spec says).
 * - Every operation is one transaction (writes `BEGIN IMMEDIATE`); a bad batch changes nothing.
 */
export function createSqliteKnowledgeBase(options: SqliteKnowledgeBaseOptions): KnowledgeBase {
  const checked = checkSqliteStoreOptions(options, 'createSqliteKnowledgeBase options');
  const { namespace, source } = checked;
  const inMemory = source.kind === 'path' ? source.path === ':memory:' : source.database.memory;
  let connection: Connection<KnowledgeStatements> | undefined;
  let closed = false;

  const begin = (collectionId: unknown): void => {
    assertValidCollectionId(collectionId);
    if (closed) {
      throw new MemStoreError(
        '[mem/sqlite] this knowledge base is closed; create a new one with createSqliteKnowledgeBase().',
      );
    }
  };
  /** Connects on first use, after the call's input was checked. */
  const conn = (): Connection<KnowledgeStatements> => {
    connection ??= connect(checked, 'createSqliteKnowledgeBase', prepareKnowledgeStatements);
    return connection;
  };
  const collectionOf = (st: KnowledgeStatements, collectionId: string) =>
    st.collection.get({ ns: namespace, collectionId })?.id;

  return {
    specificationVersion: KNOWLEDGE_BASE_SPECIFICATION_VERSION,
    capabilities: Object.freeze({ lexical: true, semantic: false, durable: !inMemory }),
    namespace,

    add: run((collectionId: string, chunks: readonly KnowledgeChunk[]) => {
      begin(collectionId);
      const parsed = parseChunks(chunks);
      if (parsed.length === 0) return;
      conn().write((st) => {
        let collection = collectionOf(st, collectionId);
        if (collection === undefined) {
          collection = Number(
            st.insertCollection.run({ ns: namespace, collectionId }).lastInsertRowid,
          );
        }
        for (const chunk of parsed) {
          const key = { collection, sid: chunk.metadata.sessionId, chunkId: chunk.id };
          const old = st.chunkRowId.get(key)?.id;
          if (old !== undefined) remove(st, old);
          const id = st.insertChunk.run({
            ...key,
            createdAt: chunk.metadata.createdAt,
            json: JSON.stringify(chunk),
          }).lastInsertRowid;
          st.insertText.run({ id, scope: `c${collection}`, body: indexText(chunk.text) });
        }
      });
    }),

    search: run((collectionId: string, query: string, searchOptions) => {
      begin(collectionId);
      const text = parseQuery(query);
      const { topK, sessionId } = parseSearchOptions(searchOptions);
      return conn().read((st) => {
        const collection = collectionOf(st, collectionId);
        const match =
          collection === undefined ? undefined : matchExpression(`c${collection}`, text);
        if (match === undefined) return [];
        const rows = st.search.all({ match, sid: sessionId ?? null, topK });
        return rows.map((row, i) => ({
          chunk: JSON.parse(row.json) as KnowledgeChunk,
          score: row.score,
          rank: i + 1,
        }));
      });
    }),

    delete: run((collectionId: string, filter: KnowledgeDeleteFilter) => {
      begin(collectionId);
      const parsed = parseDeleteFilter(filter);
      return conn().write((st) => {
        const collection = collectionOf(st, collectionId);
        if (collection === undefined) return 0;
        const matches = deleteMatcher(parsed);
        let deleted = 0;
        for (const row of st.sessionChunks.all({ collection, sid: parsed.sessionId })) {
          if (!matches(JSON.parse(row.json) as KnowledgeChunk)) continue;
          remove(st, row.id);
          deleted += 1;
        }
        return deleted;
      });
    }),

    count: run((collectionId: string, filter) => {
      begin(collectionId);
      const { sessionId } = parseCountFilter(filter);
      return conn().read((st) => {
        const collection = collectionOf(st, collectionId);
        if (collection === undefined) return 0;
        const row =
          sessionId === undefined
            ? st.countAll.get({ collection })
            : st.countSession.get({ collection, sid: sessionId });
        return row?.n ?? 0;
      });
    }),

    close: run(() => {
      if (closed) return;
      closed = true;
      if (connection?.owned === true) connection.db.close();
      connection = undefined;
    }),
  };
}

function remove(st: KnowledgeStatements, id: number): void {
  st.deleteText.run({ id });
  st.deleteChunk.run({ id });
}

/** Which chunks of the filter's session `delete` removes (see `KnowledgeDeleteFilter`). */
function deleteMatcher(filter: KnowledgeDeleteFilter): (chunk: KnowledgeChunk) => boolean {
  if (filter.messageIds === undefined && filter.summaryIds === undefined) return () => true;
  const messages = new Set(filter.messageIds);
  const summaries = new Set(filter.summaryIds);
  return ({ metadata }) => {
    const { summaryId } = metadata;
    if (summaryId !== undefined && (summaries.has(summaryId) || messages.has(summaryId))) {
      return true;
    }
    return metadata.messageIds.some((id) => messages.has(id));
  };
}

/** Wraps a synchronous operation as the async method the spec declares; throws become rejections. */
function run<A extends unknown[], R>(operation: (...args: A) => R): (...args: A) => Promise<R> {
  return (...args) => {
    try {
      return Promise.resolve(operation(...args));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
