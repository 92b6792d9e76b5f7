/**
 * The KnowledgeBase contract, version 2. A spec is types only: core ships an in-memory, lexical
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
 * Users (v2): a chunk may carry the user its session belongs to (`metadata.userId`). A search,
 * a count and a delete can be limited to one user's chunks; a search with `userId` never returns
 * a chunk of another user, nor one without a user.
 *
 * Ids: collection ids are validated with `assertValidCollectionId` (1-128 characters: letters,
 * digits, `_`, `-`, `.`, `:`) and session ids with `assertValidSessionId`; a bad id is a
 * `MemValidationError` naming the field (`collectionId`, `sessionId`). Backends bind ids as
 * parameters: an id never becomes SQL text, a key pattern or a file path.
 */
export const KNOWLEDGE_BASE_SPECIFICATION_VERSION = 'mem.kb.v2';

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
  /** The user that session belongs to (v2; checked with `assertValidUserId`). */
  userId?: string;
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
  /**
   * Only chunks of this user (v2), from any of the user's sessions; with `sessionId` too, only
   * chunks that match both. Default: chunks of any user, and chunks without one.
   */
  userId?: string;
}

/**
 * Which chunks `delete` removes: chunks of `sessionId` — all of them when neither list is given,
 * else those whose `messageIds` meet `messageIds` or whose `summaryId` is in `summaryIds` or in
 * `messageIds` (a summary is itself a message). An empty list matches nothing.
 *
 * v2: `{ userId }` alone removes every chunk of the user, in every session (the lists are not
 * allowed with it); `{ sessionId, userId }` narrows the session's chunks to that user's. At
 * least one of `sessionId` and `userId` is required.
 */
export type KnowledgeDeleteFilter =
  | { sessionId: string; userId?: string; messageIds?: string[]; summaryIds?: string[] }
  | { userId: string; sessionId?: undefined; messageIds?: undefined; summaryIds?: undefined };

export interface KnowledgeCountFilter {
  /** Count only this session's chunks. Default: the whole collection. */
  sessionId?: string;
  /** Count only this user's chunks (v2); with `sessionId`, those matching both. */
  userId?: string;
}

/**
 * A namespaced knowledge base. Every method validates its ids first; after `close` every method
 * rejects with `MemStoreError`. Results are copies, and nothing stored aliases the caller's
 * objects.
 */
/**
 * The KnowledgeBase contract, version 2 (`mem.kb.v2`). v2 = v1 + users: `metadata.userId`, and
 * `userId` in search, count and delete filters; a v1 knowledge base is refused by core.
 */
export interface KnowledgeBaseV2 {
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
export type KnowledgeBase = KnowledgeBaseV2;

/** The text a backend indexes for a chunk: its `context` (if any), a line break, its `text`. */
export function searchableText(chunk: Pick<KnowledgeChunk, 'text' | 'context'>): string {
  return chunk.context === undefined || chunk.context.length === 0
    ? chunk.text
    : `${chunk.context}\n${chunk.text}`;
}
