import { MemConfigError, MemStoreError } from '@mem/core';
import {
  analyzeText,
  assertValidCollectionId,
  candidateDepth,
  deleteMatcher,
  embedTexts,
  fuseHits,
  KNOWLEDGE_BASE_SPECIFICATION_VERSION,
  type KnowledgeBase,
  type KnowledgeChunk,
  type KnowledgeDeleteFilter,
  keepsSimilarity,
  keyByChunk,
  newerFirst,
  parseChunks,
  parseCountFilter,
  parseDeleteFilter,
  parseQuery,
  parseSearchOptions,
  rankHits,
  type ScoredHit,
  searchableText,
} from '@mem/core/backend';
import type { Database } from 'better-sqlite3';
import { connect } from './connection.ts';
import { MAX_QUERY_TERMS } from './fts-query.ts';
import {
  applyOwnWrite,
  currentMirror,
  existingMirror,
  type OwnWrite,
  parseChunkRow,
} from './kb-mirror.ts';
import { pruneRemovedLog, removeChunkRow } from './kb-remove.ts';
import { type KnowledgeStatements, prepareKnowledgeStatements } from './kb-statements.ts';
import { type AnalyzedChunk, analyzeChunk, searchScope, TermsBatch } from './kb-terms.ts';
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
 * A `KnowledgeBase` (spec `mem.kb.v2`) on SQLite, ranked with BM25, durable when given a file.
 * It can share a file (or a connection) with `createSqliteStore`.
 *
 * - Text is analyzed like the in-memory knowledge base (`analyzeText`: folded, stopwords dropped,
 *   compounds kept whole and split, CJK bigrams). Chunks and their metadata live in a plain
 *   table, their analyzed text in an FTS5 table (`unicode61 remove_diacritics 2`).
 * - Lexical search ranks in process: each connection keeps an in-memory BM25 index per
 *   collection (core's `Bm25Index`, so the same ranking, statistics per collection, as the
 *   in-memory knowledge base), built by the collection's first search and kept in step with
 *   every commit, this connection's and other processes' (see `kb-mirror.ts`). User text is
 *   never SQL or FTS5 syntax. Ties go to the newer chunk (`metadata.createdAt`), then the
 *   smaller id.
 * - With an `embedder`, chunks also get vectors (sqlite-vec, cosine), embedded before the write
 *   transaction opens; `retrieval` picks BM25, nearest vectors, or both fused by Reciprocal Rank
 *   Fusion (`'hybrid'`, the default then). See the README.
 * - A chunk's `metadata.userId` is also a column: a search with `userId` ranks (by the whole
 *   collection's statistics) only that user's chunks, in the BM25 mirror and in the vector scan;
 *   counts and deletes by user find the user's chunks by index, across sessions.
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
  /** BM25 hits of `text` in `collection`, best first (inside a read transaction). */
  const lexical = (
    db: Database,
    st: KnowledgeStatements,
    collection: number,
    text: string,
    scope: { sessionId?: string; userId?: string },
    topK: number,
  ): ScoredHit[] => {
    const terms = [...new Set(analyzeText(text))].slice(0, MAX_QUERY_TERMS);
    if (terms.length === 0) return [];
    if (scope.sessionId !== undefined || scope.userId !== undefined) {
      // A scoped search reads its scope's rows and the collection's statistics from the file.
      return copies(searchScope(db, st, collection, terms, scope, topK));
    }
    const { index } = currentMirror(db, st, collection);
    return copies(index.search(terms, topK));
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
      // Analyzed before the write lock is taken.
      const analyzedChunks = parsed.map(analyzeChunk);
      await connection.write(
        (st, db) => {
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
          const mirror = existingMirror(db, st, collection);
          const write: OwnWrite = { removed: [], added: [], lastSeq: 0 };
          const terms = new TermsBatch(st, collection);
          parsed.forEach((chunk, i) => {
            const sid = chunk.metadata.sessionId;
            const key = { collection, sid, chunkId: chunk.id };
            const old = st.chunkRowId.get(key)?.id;
            if (old !== undefined) removeChunkRow(st, collection, old, vec, write);
            const analyzed = analyzedChunks[i] as AnalyzedChunk;
            const id = Number(
              st.insertChunk.run({
                ...key,
                createdAt: chunk.metadata.createdAt,
                json: JSON.stringify(chunk),
                summaryId: chunk.metadata.summaryId ?? null,
                user: chunk.metadata.userId ?? null,
              }).lastInsertRowid,
            );
            st.insertText.run({ id, scope: `c${collection}`, body: analyzed.body });
            terms.add(id, chunk, analyzed);
            write.added.push({ id, chunk });
            const vector = vectors?.[i];
            if (vec !== undefined && vector !== undefined) {
              vec.insert(id, collection as number, sid, vector);
            }
          });
          terms.flush();
          pruneRemovedLog(st, write);
          return { mirror, write };
        },
        ({ mirror, write }) => applyOwnWrite(mirror, write),
      );
    },

    search: async (collectionId: string, query: string, searchOptions) => {
      begin(collectionId);
      const text = parseQuery(query);
      const { topK, ...scope } = parseSearchOptions(searchOptions);
      if (embedder === undefined || retrieval === 'lexical') {
        return connection.read((st, db) => {
          const collection = collectionOf(st, collectionId);
          if (collection === undefined) return [];
          return rankHits(lexical(db, st, collection, text, scope, topK));
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
                scope,
                minSimilarity,
              );
        if (retrieval === 'semantic') return rankHits(semantic.slice(0, topK));
        const words = lexical(db, st, collection, text, scope, depth);
        return fuseHits(keyByChunk(words), keyByChunk(semantic), rrfK, topK);
      });
    },

    delete: async (collectionId: string, filter: KnowledgeDeleteFilter) => {
      begin(collectionId);
      const parsed = parseDeleteFilter(filter);
      const done = await connection.write(
        (st, db) => {
          const collection = collectionOf(st, collectionId);
          if (collection === undefined) return undefined;
          const vec = vectorsToUpdate(db, st);
          const mirror = existingMirror(db, st, collection);
          const write: OwnWrite = { removed: [], added: [], lastSeq: 0 };
          const { sessionId: sid, userId } = parsed;
          const user = userId ?? null;
          if (
            sid !== undefined &&
            parsed.messageIds === undefined &&
            parsed.summaryIds !== undefined
          ) {
            // Compaction's delete: the summary ids are indexed, nothing else is read.
            const ids = JSON.stringify(parsed.summaryIds);
            for (const row of st.summaryChunks.all({ collection, sid, ids, user })) {
              removeChunkRow(st, collection, row.id, vec, write);
            }
          } else {
            // A session's chunks, or (forgetting a user) the user's in every session, by index;
            // the matcher checks the rest (user, ids) on each.
            const matches = deleteMatcher(parsed);
            const rows =
              sid === undefined
                ? st.userChunks.all({ collection, user })
                : st.sessionChunks.all({ collection, sid });
            // A row this package did not write goes with its whole session or user.
            const whole = parsed.messageIds === undefined && parsed.summaryIds === undefined;
            for (const row of rows) {
              const chunk = parseChunkRow(row.json);
              if (chunk === undefined ? whole : matches(chunk)) {
                removeChunkRow(st, collection, row.id, vec, write);
              }
            }
          }
          pruneRemovedLog(st, write);
          return { mirror, write };
        },
        (done) => {
          if (done !== undefined) applyOwnWrite(done.mirror, done.write);
        },
      );
      return done?.write.removed.length ?? 0;
    },

    count: async (collectionId: string, filter) => {
      begin(collectionId);
      const { sessionId: sid, userId: user } = parseCountFilter(filter);
      return connection.read((st) => {
        const collection = collectionOf(st, collectionId);
        if (collection === undefined) return 0;
        const row =
          user === undefined
            ? sid === undefined
              ? st.countAll.get({ collection })
              : st.countSession.get({ collection, sid })
            : sid === undefined
              ? st.countUser.get({ collection, user })
              : st.countSessionUser.get({ collection, sid, user });
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
  scope: { sessionId?: string; userId?: string },
  minSimilarity: number | undefined,
): ScoredHit[] {
  const hits: ScoredHit[] = [];
  for (const row of vec.nearest(query, depth, collection, scope.sessionId, scope.userId)) {
    // null: a zero vector has no direction.
    if (row.distance === null || !keepsSimilarity(1 - row.distance, minSimilarity)) continue;
    const chunk = JSON.parse(row.json) as KnowledgeChunk;
    hits.push({ chunk, score: 1 - row.distance });
  }
  return hits.sort((a, b) => b.score - a.score || newerFirst(a, b));
}

/** The chunks of a batch, keeping only the last of each (session, id): the last one wins. */
function lastOfEach(chunks: readonly KnowledgeChunk[]): KnowledgeChunk[] {
  const last = new Map<string, KnowledgeChunk>();
  for (const chunk of chunks) last.set(JSON.stringify([chunk.metadata.sessionId, chunk.id]), chunk);
  return [...last.values()];
}

/** Hits with their chunks copied: nothing returned aliases the mirror. */
function copies<H extends { chunk: KnowledgeChunk }>(hits: H[]): H[] {
  for (const hit of hits) {
    const { chunk } = hit;
    hit.chunk = {
      ...chunk,
      metadata: { ...chunk.metadata, messageIds: [...chunk.metadata.messageIds] },
    };
  }
  return hits;
}
