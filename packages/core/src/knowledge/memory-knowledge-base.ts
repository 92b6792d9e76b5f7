import { type ConfigIssue, MemConfigError, MemStoreError } from '../errors/errors.ts';
import { MemError } from '../errors/mem-error.ts';
import { assertValidNamespace } from '../store/validate-ids.ts';
import { analyzeText } from './analyze-text.ts';
import { Bm25Index, type IndexedChunk } from './bm25-index.ts';
import {
  KNOWLEDGE_BASE_SPECIFICATION_VERSION,
  type KnowledgeBase,
  type KnowledgeChunk,
  type KnowledgeCountFilter,
  type KnowledgeDeleteFilter,
  type KnowledgeSearchOptions,
} from './knowledge-base-spec.ts';
import {
  parseChunks,
  parseCountFilter,
  parseDeleteFilter,
  parseQuery,
  parseSearchOptions,
} from './parse-knowledge-input.ts';
import { assertValidCollectionId } from './validate-collection-id.ts';

export interface MemoryKnowledgeBaseOptions {
  /** The tenant this knowledge base is bound to: 1-64 letters, digits, `_` or `-`. Default `'default'`. */
  namespace?: string;
}

/**
 * A `KnowledgeBase` (spec `mem.kb.v1`) in process memory: lexical, not durable, one process.
 * Each instance holds its own data.
 *
 * - Ranking: Okapi BM25 (k1 = 1.2, b = 0.75) over an inverted index per collection, text
 *   analyzed by `analyzeText` (Unicode words, compounds such as `AF-1042` kept whole and split,
 *   a small English stopword list, possessives stripped, CJK bigrams). Query terms are deduped;
 *   only chunks in the postings of a query term are scored; the top k are picked with a bounded
 *   heap. Equal scores go to the newer chunk (`metadata.createdAt`), then the smaller id.
 * - Operations are synchronous inside, so each is atomic: a batch that fails validation
 *   changes nothing.
 * - Everything returned is a copy, and nothing stored aliases the caller's objects.
 */
export function createMemoryKnowledgeBase(options: MemoryKnowledgeBaseOptions = {}): KnowledgeBase {
  const namespace = checkOptions(options);
  const collections = new Map<string, Bm25Index>();
  let closed = false;

  const open = (collectionId: unknown): void => {
    assertValidCollectionId(collectionId);
    if (closed) {
      throw new MemStoreError(
        '[mem/knowledge] this knowledge base is closed; create a new one with createMemoryKnowledgeBase().',
      );
    }
  };

  return {
    specificationVersion: KNOWLEDGE_BASE_SPECIFICATION_VERSION,
    capabilities: { lexical: true, semantic: false, durable: false },
    namespace,

    add: run((collectionId: string, chunks: readonly KnowledgeChunk[]) => {
      open(collectionId);
      const parsed = parseChunks(chunks);
      if (parsed.length === 0) return;
      let index = collections.get(collectionId);
      if (index === undefined) {
        index = new Bm25Index();
        collections.set(collectionId, index);
      }
      index.add(parsed);
    }),

    search: run((collectionId: string, query: string, searchOptions: KnowledgeSearchOptions) => {
      open(collectionId);
      const text = parseQuery(query);
      const { topK, sessionId } = parseSearchOptions(searchOptions);
      const index = collections.get(collectionId);
      if (index === undefined) return [];
      const terms = [...new Set(analyzeText(text))];
      return index.search(terms, topK, sessionId).map((hit, i) => ({
        chunk: copyChunk(hit.chunk),
        score: hit.score,
        rank: i + 1,
      }));
    }),

    delete: run((collectionId: string, filter: KnowledgeDeleteFilter) => {
      open(collectionId);
      const parsed = parseDeleteFilter(filter);
      const index = collections.get(collectionId);
      const session = index?.sessions.get(parsed.sessionId);
      if (index === undefined || session === undefined) return 0;
      const doomed = [...session.values()].filter(deleteMatcher(parsed));
      index.remove(doomed);
      if (index.size === 0) collections.delete(collectionId);
      return doomed.length;
    }),

    count: run((collectionId: string, filter?: KnowledgeCountFilter) => {
      open(collectionId);
      const { sessionId } = parseCountFilter(filter);
      const index = collections.get(collectionId);
      if (index === undefined) return 0;
      return sessionId === undefined ? index.size : (index.sessions.get(sessionId)?.size ?? 0);
    }),

    close: run(() => {
      closed = true;
      collections.clear();
    }),
  };
}

/** Which entries of the filter's session `delete` removes (see `KnowledgeDeleteFilter`). */
function deleteMatcher(filter: KnowledgeDeleteFilter): (entry: IndexedChunk) => boolean {
  if (filter.messageIds === undefined && filter.summaryIds === undefined) return () => true;
  const messages = new Set(filter.messageIds);
  const summaries = new Set(filter.summaryIds);
  return ({ chunk: { metadata } }) => {
    const { summaryId } = metadata;
    if (summaryId !== undefined && (summaries.has(summaryId) || messages.has(summaryId))) {
      return true;
    }
    return metadata.messageIds.some((id) => messages.has(id));
  };
}

function copyChunk(chunk: KnowledgeChunk): KnowledgeChunk {
  return { ...chunk, metadata: { ...chunk.metadata, messageIds: [...chunk.metadata.messageIds] } };
}

function checkOptions(options: MemoryKnowledgeBaseOptions): string {
  const issues: ConfigIssue[] = [];
  const namespace = options.namespace ?? 'default';
  try {
    assertValidNamespace(namespace);
  } catch (error) {
    if (!MemError.isInstance(error)) throw error;
    issues.push({
      path: 'namespace',
      message: 'use 1-64 letters, digits, "_" or "-", starting with a letter or digit',
    });
  }
  if (issues.length > 0) {
    throw new MemConfigError(issues, { source: 'createMemoryKnowledgeBase options' });
  }
  return namespace;
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
