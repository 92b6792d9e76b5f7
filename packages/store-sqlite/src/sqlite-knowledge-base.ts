import {
  analyzeText,
  assertValidCollectionId,
  candidateDepth,
  embedTexts,
  fuseHits,
  KNOWLEDGE_BASE_SPECIFICATION_VERSION,
  type KnowledgeBase,
  type KnowledgeChunk,
  type KnowledgeDeleteFilter,
  keepsSimilarity,
  MemConfigError,
  MemStoreError,
  newerFirst,
  parseChunks,
  parseCountFilter,
  parseDeleteFilter,
  parseQuery,
  parseSearchOptions,
  type Ranked,
  rankHits,
  type ScoredHit,
  searchableText,
} from '@mem/core';
import type { Database } from 'better-sqlite3';
import { connect } from './connection.ts';
import { indexText, matchExpression } from './fts-query.ts';
import { type KnowledgeStatements, prepareKnowledgeStatements } from './kb-statements.ts';
import {
  assertSameSpace,
  bindSpace,
  boundSpace,
  loadVectorExtension,
  MAX_KNN_K,
  type VectorStatements,
  vectorStatements,
} from './kb-vectors.ts';
import {
  checkSqliteKnowledgeBaseOptions,
  type SqliteKnowledgeBaseOptions,
} from './sqlite-knowledge-base-options.ts';

const LABEL = 'mem/sqlite';

/**
 * A `KnowledgeBase` (spec `mem.kb.v1`) on SQLite FTS5, ranked with BM25 (`bm25()`), durable
 * when given a file. It can share a file (or a connection) with `createSqliteStore`.
 *
 * - Text is analyzed like the in-memory knowledge base (`analyzeText`: folded, stopwords dropped,
 *   compounds kept whole and split, CJK bigrams) and indexed in an FTS5 table with the
 *   `unicode61 remove_diacritics 2` tokenizer; chunks and their metadata live in a plain table.
 * - A query becomes an OR of quoted terms, scoped to its collection: user text is never FTS5
 *   syntax. Ties go to the newer chunk (`metadata.createdAt`), then the smaller id.
 * - BM25 statistics (document count, average length, term rarity) are those of the whole FTS
 *   table, i.e. of every collection in the file; rankings within a collection stay sensible,
 *   scores are comparable only within one result list (as the spec says).
 * - With an `embedder`, chunks also get vectors (sqlite-vec, cosine), embedded before the write
 *   transaction opens; `retrieval` picks BM25, nearest vectors, or both fused by Reciprocal Rank
 *   Fusion (`'hybrid'`, the default then). See the README.
 * - Every write is one transaction (`BEGIN IMMEDIATE`); a bad batch changes nothing.
 */
export function createSqliteKnowledgeBase(options: SqliteKnowledgeBaseOptions): KnowledgeBase {
  const checked = checkSqliteKnowledgeBaseOptions(options);
  const { namespace, source, embedder, retrieval, rrfK, minSimilarity } = checked;
  const inMemory = source.kind === 'path' ? source.path === ':memory:' : source.database.memory;
  /** Connects on first use, after the call's input was checked. */
  const connection = connect(
    checked,
    'createSqliteKnowledgeBase',
    prepareKnowledgeStatements,
    embedder === undefined ? undefined : loadVectorExtension,
  );
  let closed = false;

  const assertOpen = (): void => {
    if (closed) {
      throw new MemStoreError(
        '[mem/sqlite] this knowledge base is closed; create a new one with createSqliteKnowledgeBase().',
      );
    }
  };
  const begin = (collectionId: unknown): void => {
    assertValidCollectionId(collectionId);
    assertOpen();
  };
  const collectionOf = (st: KnowledgeStatements, collectionId: string) =>
    st.collection.get({ ns: namespace, collectionId })?.id;
  /**
   * The vectors a write must keep in step with the chunks (inside the write transaction).
   * Without an embedder, a namespace that holds vectors is refused: they would go stale.
   */
  const vectorsToUpdate = (db: Database, st: KnowledgeStatements) => {
    if (embedder !== undefined) {
      const space = boundSpace(db, namespace);
      assertSameSpace(space, embedder, namespace);
      return space === undefined ? undefined : vectorStatements(db, space.id);
    }
    const space = st.hasVectors.get({ ns: namespace })?.space;
    if (space === undefined) return undefined;
    throw new MemConfigError(
      [
        {
          path: 'embedder',
          message: `namespace ${JSON.stringify(namespace)} holds vectors; pass the embedder that wrote them, so that writes keep them in step`,
        },
      ],
      { source: 'createSqliteKnowledgeBase options' },
    );
  };
  /** BM25 hits of `text` in `collection`, best first. */
  const lexical = (
    st: KnowledgeStatements,
    collection: number,
    text: string,
    sessionId: string | undefined,
    topK: number,
  ): Ranked<ScoredHit>[] => {
    const match = matchExpression(`c${collection}`, text);
    if (match === undefined) return [];
    return st.search.all({ match, sid: sessionId ?? null, topK }).map((row) => ({
      key: row.id,
      item: { chunk: JSON.parse(row.json) as KnowledgeChunk, score: row.score },
    }));
  };

  return {
    specificationVersion: KNOWLEDGE_BASE_SPECIFICATION_VERSION,
    capabilities: Object.freeze({
      lexical: retrieval !== 'semantic',
      semantic: retrieval !== 'lexical',
      durable: !inMemory,
    }),
    namespace,

    add: async (collectionId: string, chunks: readonly KnowledgeChunk[]) => {
      begin(collectionId);
      const parsed = lastOfEach(parseChunks(chunks));
      if (parsed.length === 0) return;
      let vectors: Float32Array[] | undefined;
      if (embedder !== undefined) {
        // Refuse before paying for embeddings; checked again under the write lock.
        assertSameSpace(
          await connection.read((_st, db) => boundSpace(db, namespace)),
          embedder,
          namespace,
        );
        // Never hold the write lock across the embedder's (network) call.
        vectors = await embedTexts(embedder, parsed.map(searchableText), 'document', LABEL);
        assertOpen();
      }
      await connection.write((st, db) => {
        const vec =
          embedder === undefined
            ? vectorsToUpdate(db, st)
            : vectorStatements(db, bindSpace(db, namespace, embedder).id);
        let collection = collectionOf(st, collectionId);
        if (collection === undefined) {
          collection = Number(
            st.insertCollection.run({ ns: namespace, collectionId }).lastInsertRowid,
          );
        }
        parsed.forEach((chunk, i) => {
          const sid = chunk.metadata.sessionId;
          const key = { collection, sid, chunkId: chunk.id };
          const old = st.chunkRowId.get(key)?.id;
          if (old !== undefined) remove(st, old, vec);
          const id = Number(
            st.insertChunk.run({
              ...key,
              createdAt: chunk.metadata.createdAt,
              json: JSON.stringify(chunk),
            }).lastInsertRowid,
          );
          st.insertText.run({
            id,
            scope: `c${collection}`,
            body: indexText(searchableText(chunk)),
          });
          const vector = vectors?.[i];
          if (vec !== undefined && vector !== undefined) {
            vec.insert(id, collection as number, sid, vector);
          }
        });
      });
    },

    search: async (collectionId: string, query: string, searchOptions) => {
      begin(collectionId);
      const text = parseQuery(query);
      const { topK, sessionId } = parseSearchOptions(searchOptions);
      if (embedder === undefined || retrieval === 'lexical') {
        return connection.read((st) => {
          const collection = collectionOf(st, collectionId);
          if (collection === undefined) return [];
          return rankHits(lexical(st, collection, text, sessionId, topK).map(({ item }) => item));
        });
      }
      const found = await connection.read((st, db) => ({
        collection: collectionOf(st, collectionId),
        space: boundSpace(db, namespace),
      }));
      // No searchable words (the spec's rule, kept in every mode): nothing to embed.
      if (found.collection === undefined || analyzeText(text).length === 0) return [];
      assertSameSpace(found.space, embedder, namespace);
      const depth = Math.min(MAX_KNN_K, candidateDepth(topK));
      const [queryVector] =
        found.space === undefined ? [] : await embedTexts(embedder, [text], 'query', LABEL);
      assertOpen();
      const collection = found.collection;
      return connection.read((st, db) => {
        const space = boundSpace(db, namespace);
        const semantic =
          space === undefined || queryVector === undefined
            ? []
            : nearest(
                vectorStatements(db, space.id),
                queryVector,
                depth,
                collection,
                sessionId,
                minSimilarity,
              );
        if (retrieval === 'semantic')
          return rankHits(semantic.slice(0, topK).map(({ item }) => item));
        const words = lexical(st, collection, text, sessionId, depth);
        return fuseHits(words, semantic, rrfK, topK);
      });
    },

    delete: async (collectionId: string, filter: KnowledgeDeleteFilter) => {
      begin(collectionId);
      const parsed = parseDeleteFilter(filter);
      return connection.write((st, db) => {
        const collection = collectionOf(st, collectionId);
        if (collection === undefined) return 0;
        const vec = vectorsToUpdate(db, st);
        const matches = deleteMatcher(parsed);
        let deleted = 0;
        for (const row of st.sessionChunks.all({ collection, sid: parsed.sessionId })) {
          if (!matches(JSON.parse(row.json) as KnowledgeChunk)) continue;
          remove(st, row.id, vec);
          deleted += 1;
        }
        return deleted;
      });
    },

    count: async (collectionId: string, filter) => {
      begin(collectionId);
      const { sessionId } = parseCountFilter(filter);
      return connection.read((st) => {
        const collection = collectionOf(st, collectionId);
        if (collection === undefined) return 0;
        const row =
          sessionId === undefined
            ? st.countAll.get({ collection })
            : st.countSession.get({ collection, sid: sessionId });
        return row?.n ?? 0;
      });
    },

    close: async () => {
      if (closed) return;
      closed = true;
      connection.close();
    },
  };
}

/**
 * The nearest chunks by cosine similarity (the score), best first; only those `keepsSimilarity`
 * accepts (above 0, or at least `minSimilarity`).
 */
function nearest(
  vec: VectorStatements,
  query: Float32Array,
  depth: number,
  collection: number,
  sessionId: string | undefined,
  minSimilarity: number | undefined,
): Ranked<ScoredHit>[] {
  const hits: Ranked<ScoredHit>[] = [];
  for (const row of vec.nearest(query, depth, collection, sessionId)) {
    // null: a zero vector has no direction.
    if (row.distance === null || !keepsSimilarity(1 - row.distance, minSimilarity)) continue;
    const chunk = JSON.parse(row.json) as KnowledgeChunk;
    hits.push({ key: row.id, item: { chunk, score: 1 - row.distance } });
  }
  return hits.sort((a, b) => b.item.score - a.item.score || newerFirst(a.item, b.item));
}

/** The chunks of a batch, keeping only the last of each (session, id): the last one wins. */
function lastOfEach(chunks: readonly KnowledgeChunk[]): KnowledgeChunk[] {
  const last = new Map<string, KnowledgeChunk>();
  for (const chunk of chunks) last.set(JSON.stringify([chunk.metadata.sessionId, chunk.id]), chunk);
  return [...last.values()];
}

function remove(st: KnowledgeStatements, id: number, vec: VectorStatements | undefined): void {
  st.deleteText.run({ id });
  vec?.delete(id);
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
