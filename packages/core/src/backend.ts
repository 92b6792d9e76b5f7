/**
 * `@mem/core/backend`, for authors of a Store, KnowledgeBase or Embedder: the specifications and
 * their versions, the input parsers every backend runs before touching data, batch encoding,
 * cursors, id checks, conflict errors, text analysis and ranking shared with the in-memory
 * implementations. Run `@mem/store-test-suite` against what you build.
 */

export { knowledgeBaseProblem, storeProblem } from './engine/resolve-parts.ts';
export type { ConflictCounter } from './errors/errors.ts';
export type { AnalyzeOptions } from './knowledge/analyze-text.ts';
export { analyzeText, normalizeText, STOPWORDS } from './knowledge/analyze-text.ts';
export type { IndexedChunk, ScoredChunk } from './knowledge/bm25-index.ts';
export { Bm25Index } from './knowledge/bm25-index.ts';
export type {
  Bm25CollectionStats,
  ScopeAccess,
  WeightedTerm,
} from './knowledge/bm25-scope.ts';
export {
  bm25Norms,
  bm25TermScore,
  bm25Weight,
  MAX_QUERY_TERMS as MAX_SCORED_QUERY_TERMS,
  pickTerms,
  rankScope,
  topScored,
} from './knowledge/bm25-scope.ts';
export { keepsSimilarity, normalizeVector } from './knowledge/cosine.ts';
export { deleteMatcher } from './knowledge/delete-matcher.ts';
export { embedTexts } from './knowledge/embed-texts.ts';
export type { Embedder, EmbedderV1, EmbedOptions, EmbedResult } from './knowledge/embedder-spec.ts';
export { EMBEDDER_SPECIFICATION_VERSION } from './knowledge/embedder-spec.ts';
export type {
  KnowledgeBase,
  KnowledgeBaseCapabilities,
  KnowledgeBaseV2,
  KnowledgeChunk,
  KnowledgeChunkMetadata,
  KnowledgeCountFilter,
  KnowledgeDeleteFilter,
  KnowledgeHit,
  KnowledgeSearchOptions,
} from './knowledge/knowledge-base-spec.ts';
export {
  KNOWLEDGE_BASE_SPECIFICATION_VERSION,
  searchableText,
} from './knowledge/knowledge-base-spec.ts';
export {
  parseChunks,
  parseCountFilter,
  parseDeleteFilter,
  parseQuery,
  parseSearchOptions,
} from './knowledge/parse-knowledge-input.ts';
export type { ScoredHit } from './knowledge/rank-hits.ts';
export {
  candidateDepth,
  fuseHits,
  keyByChunk,
  newerFirst,
  rankHits,
} from './knowledge/rank-hits.ts';
export type { Ranked } from './knowledge/reciprocal-rank-fusion.ts';
export { reciprocalRankFusion } from './knowledge/reciprocal-rank-fusion.ts';
export type {
  CheckedRetrievalOptions,
  KnowledgeRetrieval,
  RetrievalOptions,
} from './knowledge/retrieval-options.ts';
export { checkRetrievalOptions, embedderIssues } from './knowledge/retrieval-options.ts';
export { kthHighest, kthScore } from './knowledge/select-top-k.ts';
export {
  assertValidCollectionId,
  MAX_COLLECTION_ID_LENGTH,
} from './knowledge/validate-collection-id.ts';
export type { CountedMessage, Message } from './model/message.ts';
export { isSummaryMessage, messageText } from './model/message.ts';
export { contentPartSchema, messageSchema, toolCallSchema } from './model/message-schema.ts';
export { promptProblems } from './model/prompt-validity.ts';
export type { EncodedMessage } from './store/encode-message-batch.ts';
export {
  encodeCountedMessage,
  encodeMessageBatch,
  readAppendOptions,
  readIdempotencyKey,
} from './store/encode-message-batch.ts';
export { decodeListCursor, encodeListCursor } from './store/list-cursor.ts';
export { parseSessionSnapshot } from './store/parse-session-snapshot.ts';
export {
  parseAppendOptions,
  parseCompactInput,
  parseCountedMessages,
  parseEraseInput,
  parseFlushInput,
  parseIdempotencyKey,
  parseListOptions,
  parseReadOptions,
  parseReplaceInput,
  parseUserFactsWrite,
} from './store/parse-store-input.ts';
export {
  epochConflictError,
  userFactsConflictError,
  versionConflictError,
} from './store/store-conflict.ts';
export {
  MAX_IDEMPOTENCY_KEY_LENGTH,
  MAX_JSON_DEPTH,
  MAX_MESSAGE_TOKENS,
} from './store/store-limits.ts';
export type {
  AppendOptions,
  AppendResult,
  CompactInput,
  CompactResult,
  EraseInput,
  EraseResult,
  FlushInput,
  FlushResult,
  ForgetUserResult,
  IdempotencyRecord,
  ListOptions,
  ListResult,
  PopResult,
  ReadOptions,
  ReadResult,
  ReplaceInput,
  SessionInfo,
  SessionSnapshot,
  Store,
  StoreCapabilities,
  StoredMessage,
  StoreV1,
  StoreV2,
  StoreV3,
  SummaryRecord,
  UserFact,
  UserFacts,
  WriteUserFactsInput,
  WriteUserFactsResult,
} from './store/store-spec.ts';
export {
  MAX_USER_FACT_LENGTH,
  MAX_USER_FACTS,
  STORE_SPECIFICATION_VERSION,
} from './store/store-spec.ts';
export { isStoredMessageShape, isSummaryRecordShape } from './store/stored-shape.ts';
export { boundToOtherUserError } from './store/user-binding.ts';
export {
  assertValidNamespace,
  assertValidSessionId,
  assertValidUserId,
  MAX_SESSION_ID_LENGTH,
  namespaceOption,
  sessionIdProblem,
} from './store/validate-ids.ts';
