/**
 * The KnowledgeBase contract, version 1. A spec is types only: core ships an in-memory, lexical
 * implementation (`createInMemoryKnowledgeBase`); other backends (SQLite FTS5, vector stores)
 * implement it in their own packages.
 *
 * Model: a knowledge base holds *collections* (the `collection_id` of a summarizer profile's
 * `knowledge_base`). A collection holds *chunks*: pieces of summaries and of
 * conversation turns, each tagged with the session it came from and the messages it covers.
 * `search` returns the chunks most relevant to a query, best first.
 *
 * Identity: a chunk is identified by `(metadata.sessionId, id)` within its collection, because
 * message ids (and so chunk ids, see `chunkForIndex`) are only unique within a session. Adding a
 * chunk whose session and id are already present replaces it, so re-indexing is idempotent.
 *
 * Erasure: `delete` is how erased content leaves the index. When a neuralyzer erases messages or
 * a session is cleared, the engine deletes every chunk that covers them, so erased content never
 * comes back through `search`.
 *
 * Ids: collection ids are validated with `assertValidCollectionId` (1-128 characters: letters,
 * digits, `_`, `-`, `.`, `:`) and session ids with `assertValidSessionId`; a bad id is a
 * `MemValidationError` naming the field (`collectionId`, `sessionId`). Backends bind ids as
 * parameters: an id never becomes SQL text, a key pattern or a file path.
 */
export const KNOWLEDGE_BASE_SPECIFICATION_VERSION = 'mem.kb.v1';

/**
 * Abilities a backend declares; core reads these, never `instanceof`: the engine refuses a
 * knowledge base that is neither lexical nor semantic (it could recall nothing).
 */
export interface KnowledgeBaseCapabilities {
  /** Ranks by the words of the query (BM25, full-text search). */
  readonly lexical: boolean;
  /** Ranks by meaning (embeddings), so paraphrases match. */
  readonly semantic: boolean;
  /** Data survives the process (a file, a server). */
  readonly durable: boolean;
}

/** Where a chunk came from. */
export interface KnowledgeChunkMetadata {
  /** The session the content belongs to. */
  sessionId: string;
  /**
   * `summary`: a piece of a summary. `archive`: a piece of conversation turns — the engine indexes
   * each interaction as soon as it is finished, before any compaction archives it.
   */
  kind: 'summary' | 'archive';
  /**
   * The summary this chunk belongs to (`summary`). The engine leaves it unset on `archive` chunks
   * (they are indexed before any summary exists); other writers may set it there.
   */
  summaryId?: string;
  /**
   * Ids of the messages whose content the chunk holds: the originals a summary covers, or the
   * archived messages a transcript piece quotes. `delete` matches on these.
   */
  messageIds: string[];
  /** ms since the epoch; newer chunks win ties in ranking. */
  createdAt: number;
  /** createdAt of the oldest and newest message the chunk covers (ms since the epoch). */
  start?: number;
  end?: number;
}

/** A piece of text small enough to hand to an LLM or an embedder. */
export interface KnowledgeChunk {
  /** Unique within its session and collection, e.g. `${summaryId}:${index}`. */
  id: string;
  text: string;
  /**
   * What comes before the chunk in its source, e.g. the turn it answers. Searched together with
   * `text` (by words and by meaning: see `searchableText`), but not part of the chunk: a search
   * finds "I put my hand out" by the question "how did you break your wrist?" before it. Kept
   * and returned as given.
   */
  context?: string;
  /** Tokens of `text` as counted by the engine's TokenCounter. */
  tokenCount: number;
  metadata: KnowledgeChunkMetadata;
}

export interface KnowledgeHit {
  /** A copy: changing it does not change the knowledge base. */
  chunk: KnowledgeChunk;
  /** Relevance; higher is better. Comparable only within one result list. */
  score: number;
  /** 1 for the best hit, then 2, 3, ... */
  rank: number;
}

export interface KnowledgeSearchOptions {
  /** At most this many hits (a positive integer). */
  topK: number;
  /** Only chunks of this session. Default: every session in the collection. */
  sessionId?: string;
}

/**
 * Which chunks `delete` removes: chunks of `sessionId` — all of them when neither list is given,
 * else those whose `messageIds` meet `messageIds` or whose `summaryId` is in `summaryIds` or in
 * `messageIds` (a summary is itself a message). An empty list matches nothing.
 */
export interface KnowledgeDeleteFilter {
  sessionId: string;
  messageIds?: string[];
  summaryIds?: string[];
}

export interface KnowledgeCountFilter {
  /** Count only this session's chunks. Default: the whole collection. */
  sessionId?: string;
}

/**
 * A namespaced knowledge base. Every method validates its ids first; after `close` every method
 * rejects with `MemStoreError`. Results are copies, and nothing stored aliases the caller's
 * objects.
 */
/** The KnowledgeBase contract, version 1 (`mem.kb.v1`). */
export interface KnowledgeBaseV1 {
  readonly specificationVersion: typeof KNOWLEDGE_BASE_SPECIFICATION_VERSION;
  readonly capabilities: KnowledgeBaseCapabilities;
  /** The tenant this knowledge base is bound to. */
  readonly namespace: string;

  /**
   * Indexes chunks, creating the collection on first use. Idempotent per chunk: a chunk with the
   * session and id of a stored one replaces it (within one batch, the last one wins). A bad
   * chunk rejects the whole batch with `MemValidationError` naming its path (`chunks[3].text`).
   */
  add(collectionId: string, chunks: readonly KnowledgeChunk[]): Promise<void>;
  /**
   * The `topK` chunks most relevant to `query`, best first; `[]` when nothing matches, when the
   * query has no searchable words (empty, or stopwords only), or the collection does not exist.
   */
  search(
    collectionId: string,
    query: string,
    options: KnowledgeSearchOptions,
  ): Promise<KnowledgeHit[]>;
  /** Removes the chunks the filter selects (see `KnowledgeDeleteFilter`); returns how many. */
  delete(collectionId: string, filter: KnowledgeDeleteFilter): Promise<number>;
  /** Number of chunks in the collection (0 when it does not exist), or in one session of it. */
  count(collectionId: string, filter?: KnowledgeCountFilter): Promise<number>;
  close(): Promise<void>;
}

/** The KnowledgeBase of the version this core speaks. */
export type KnowledgeBase = KnowledgeBaseV1;

/** The text a backend indexes for a chunk: its `context` (if any), a line break, its `text`. */
export function searchableText(chunk: Pick<KnowledgeChunk, 'text' | 'context'>): string {
  return chunk.context === undefined || chunk.context.length === 0
    ? chunk.text
    : `${chunk.context}\n${chunk.text}`;
}
