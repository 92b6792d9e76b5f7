import { MemStoreError } from '../errors/errors.ts';
import { analyzeQuery } from './analyze-text.ts';
import { Bm25Index, type IndexedChunk } from './bm25-index.ts';
import { deleteMatcher } from './delete-matcher.ts';
import { embedTexts } from './embed-texts.ts';
import {
  checkMemoryKnowledgeBaseOptions,
  type InMemoryKnowledgeBaseOptions,
} from './in-memory-knowledge-base-options.ts';
import {
  KNOWLEDGE_BASE_SPECIFICATION_VERSION,
  type KnowledgeBase,
  type KnowledgeChunk,
  type KnowledgeCountFilter,
  type KnowledgeDeleteFilter,
  type KnowledgeHit,
  type KnowledgeSearchOptions,
  searchableText,
} from './knowledge-base-spec.ts';
import {
  parseChunks,
  parseCountFilter,
  parseDeleteFilter,
  parseQuery,
  parseSearchOptions,
} from './parse-knowledge-input.ts';
import { candidateDepth, fuseHits, keyByChunk, rankHits } from './rank-hits.ts';
import { assertValidCollectionId } from './validate-collection-id.ts';
import { VectorIndex } from './vector-index.ts';

/** One collection: its words and, with an embedder, its vectors. */
interface Collection {
  words: Bm25Index;
  vectors: VectorIndex;
}

const LABEL = 'mem/knowledge';

/** The chunks a search sees: one session's, one user's, both at once, or all. */
type Scope = Pick<KnowledgeSearchOptions, 'sessionId' | 'userId'>;

/**
 * A `KnowledgeBase` (spec `mem.kb.v2`) in process memory, not durable, one process. Each
 * instance holds its own data.
 *
 * - Lexical ranking: Okapi BM25 (k1 = 1.2, b = 0.75) over an inverted index per collection,
 *   text analyzed by `analyzeText` (Unicode words, compounds such as `AF-1042` kept whole and
 *   split, a small English stopword list, possessives stripped, CJK bigrams). Query terms are
 *   deduped; only chunks in the postings of a query term are scored; the top k are picked with
 *   a bounded heap. Equal scores go to the newer chunk (`metadata.createdAt`), then the smaller id.
 *   A search scoped to a session or a user ranks with the collection's term statistics.
 * - Users: a search, count or delete with `userId` sees only chunks whose `metadata.userId` is
 *   that user (an index per user keeps `delete({ userId })` and `count({ userId })` direct).
 * - With an `embedder`: chunks are embedded on `add`, queries on `search`; vectors are kept as
 *   unit-length Float32Arrays and searched exactly (cosine, every vector of the collection or
 *   session). `retrieval` picks BM25, nearest vectors, or both fused by Reciprocal Rank Fusion
 *   (`'hybrid'`, the default then). An embedder error rejects the call and changes nothing.
 * - Writes apply synchronously once embedded, so each is atomic: a batch that fails validation
 *   (or whose embedding fails) changes nothing.
 * - Everything returned is a copy, and nothing stored aliases the caller's objects.
 */
export function createInMemoryKnowledgeBase(
  options: InMemoryKnowledgeBaseOptions = {},
): KnowledgeBase {
  const { namespace, embedder, retrieval, rrfK, minSimilarity } =
    checkMemoryKnowledgeBaseOptions(options);
  const collections = new Map<string, Collection>();
  let closed = false;

  const assertOpen = (): void => {
    if (closed) {
      throw new MemStoreError(
        '[mem/knowledge] this knowledge base is closed; create a new one with createInMemoryKnowledgeBase().',
      );
    }
  };
  const open = (collectionId: unknown): void => {
    assertValidCollectionId(collectionId);
    assertOpen();
  };
  const lexical = (collection: Collection, terms: readonly string[], topK: number, scope: Scope) =>
    collection.words.search([...new Set(terms)], topK, scope.sessionId, scope.userId);

  return {
    specificationVersion: KNOWLEDGE_BASE_SPECIFICATION_VERSION,
    capabilities: Object.freeze({
      lexical: retrieval !== 'semantic',
      semantic: retrieval !== 'lexical',
      durable: false,
    }),
    namespace,

    add: async (collectionId: string, chunks: readonly KnowledgeChunk[]) => {
      open(collectionId);
      const parsed = lastOfEach(parseChunks(chunks));
      if (parsed.length === 0) return;
      const texts = parsed.map(searchableText);
      // Lexical mode never reads vectors, and no other instance sees this one's data.
      const vectors =
        embedder === undefined || retrieval === 'lexical'
          ? undefined
          : await embedTexts(embedder, texts, 'document', LABEL);
      assertOpen();
      let collection = collections.get(collectionId);
      if (collection === undefined) {
        collection = { words: new Bm25Index(), vectors: new VectorIndex() };
        collections.set(collectionId, collection);
      }
      collection.words.add(parsed);
      parsed.forEach((chunk, i) => {
        const vector = vectors?.[i];
        if (vector !== undefined) collection.vectors.set(chunk, vector);
      });
    },

    search: async (collectionId: string, query: string, searchOptions: KnowledgeSearchOptions) => {
      open(collectionId);
      const text = parseQuery(query);
      const { topK, ...scope } = parseSearchOptions(searchOptions);
      const found = collections.get(collectionId);
      if (found === undefined) return [];
      const terms = analyzeQuery(text);
      if (terms.length === 0) return [];
      if (embedder === undefined || retrieval === 'lexical') {
        return copies(rankHits(lexical(found, terms, topK, scope)));
      }
      const [vector] = await embedTexts(embedder, [text], 'query', LABEL);
      assertOpen();
      const collection = collections.get(collectionId);
      if (collection === undefined || vector === undefined) return [];
      const depth = candidateDepth(topK);
      const { sessionId, userId } = scope;
      const semantic = collection.vectors.nearest(vector, depth, sessionId, minSimilarity, userId);
      if (retrieval === 'semantic') return copies(rankHits(semantic.slice(0, topK)));
      const words = lexical(collection, terms, depth, scope);
      return copies(fuseHits(keyByChunk(words), keyByChunk(semantic), rrfK, topK));
    },

    delete: run((collectionId: string, filter: KnowledgeDeleteFilter) => {
      open(collectionId);
      const parsed = parseDeleteFilter(filter);
      const collection = collections.get(collectionId);
      if (collection === undefined) return 0;
      const doomed = doomedEntries(collection.words, parsed);
      collection.words.remove(doomed);
      for (const entry of doomed) collection.vectors.delete(entry.chunk);
      if (collection.words.size === 0) collections.delete(collectionId);
      return doomed.length;
    }),

    count: run((collectionId: string, filter?: KnowledgeCountFilter) => {
      open(collectionId);
      const { sessionId, userId } = parseCountFilter(filter);
      const words = collections.get(collectionId)?.words;
      if (words === undefined) return 0;
      if (userId === undefined) {
        return sessionId === undefined ? words.size : (words.sessions.get(sessionId)?.size ?? 0);
      }
      const entries = words.users.get(userId);
      if (entries === undefined || sessionId === undefined) return entries?.size ?? 0;
      let count = 0;
      for (const entry of entries) if (entry.chunk.metadata.sessionId === sessionId) count++;
      return count;
    }),

    close: run(() => {
      closed = true;
      collections.clear();
    }),
  };
}

/** The hits with their chunks copied: nothing returned aliases what is stored. */
function copies(hits: KnowledgeHit[]): KnowledgeHit[] {
  for (const hit of hits) hit.chunk = copyChunk(hit.chunk);
  return hits;
}

/** The chunks of a batch, keeping only the last of each (session, id): the last one wins. */
function lastOfEach(chunks: readonly KnowledgeChunk[]): KnowledgeChunk[] {
  const last = new Map<string, KnowledgeChunk>();
  for (const chunk of chunks) last.set(`${chunk.metadata.sessionId}\u0000${chunk.id}`, chunk);
  return [...last.values()];
}

/** A copy of a stored chunk (made by `parseChunks`: these fields, optional ones only when set). */
function copyChunk(chunk: KnowledgeChunk): KnowledgeChunk {
  const m = chunk.metadata;
  const metadata: KnowledgeChunk['metadata'] = {
    sessionId: m.sessionId,
    kind: m.kind,
    messageIds: m.messageIds.slice(),
    createdAt: m.createdAt,
  };
  if (m.userId !== undefined) metadata.userId = m.userId;
  if (m.summaryId !== undefined) metadata.summaryId = m.summaryId;
  if (m.start !== undefined) metadata.start = m.start;
  if (m.end !== undefined) metadata.end = m.end;
  const copy: KnowledgeChunk = {
    id: chunk.id,
    text: chunk.text,
    tokenCount: chunk.tokenCount,
    metadata,
  };
  if (chunk.context !== undefined) copy.context = chunk.context;
  return copy;
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

/** The entries `delete` removes for `filter`. */
function doomedEntries(words: Bm25Index, filter: KnowledgeDeleteFilter): IndexedChunk[] {
  const { sessionId, userId } = filter;
  if (sessionId === undefined) return [...(words.users.get(userId) ?? [])];
  const session = words.sessions.get(sessionId);
  if (session === undefined) return [];
  // Compaction deletes by summary ids only: those are indexed; anything else scans.
  const candidates =
    filter.messageIds === undefined && filter.summaryIds !== undefined
      ? words.summaryEntries(sessionId, filter.summaryIds)
      : session.values();
  const matches = deleteMatcher(filter);
  return [...candidates].filter((entry) => matches(entry.chunk));
}
