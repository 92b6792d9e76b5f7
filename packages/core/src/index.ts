export type { CompiledCondition } from './conditions/compile-condition.ts';
export { compileCondition, compileConditions } from './conditions/compile-condition.ts';
export type { ConditionCost } from './conditions/condition-budget.ts';
export { CONDITION_LIMITS } from './conditions/condition-environment.ts';
export type { ConditionValue } from './conditions/condition-value.ts';
export type {
  ConditionVars,
  InteractionConditionVars,
  MessageConditionVars,
} from './conditions/condition-vars.ts';
export { interactionVars, messageVars } from './conditions/condition-vars.ts';
export type { MemoryProfile, ParseOptions } from './config/parse-profile.ts';
export {
  parseLongTermStrategy,
  parseProfile,
  parseShortTermStrategy,
} from './config/parse-profile.ts';
export type {
  KnowledgeBaseConfig,
  LongTermStrategyConfig,
  NeuralyzerStrategyConfig,
  PersistenceStrategy,
  ProfileConfig,
  ProfileInput,
  ShortTermStrategyConfig,
  SummarizerStrategyConfig,
  TextSplitterConfig,
} from './config/profile-schema.ts';
export {
  knowledgeBaseConfigSchema,
  longTermStrategySchema,
  maxTokensStrategySchema,
  neuralyzerStrategySchema,
  persistenceStrategySchema,
  profileSchema,
  shortTermStrategySchema,
  summarizerStrategySchema,
  textSplitterConfigSchema,
} from './config/profile-schema.ts';
export type { EngineContext } from './engine/engine-context.ts';
export type {
  FallbackReason,
  MemoryEngineEvent,
  MemoryEngineEvents,
} from './engine/engine-events.ts';
export type { MemoryEngine, MemoryEngineOptions } from './engine/memory-engine.ts';
export { createMemoryEngine } from './engine/memory-engine.ts';
export type {
  AppendedMessages,
  AppendOptions as SessionAppendOptions,
  ContextOptions,
  MemoryContext,
  MemorySession,
  MessageInput,
  SummarizeNowOptions,
} from './engine/memory-session.ts';
export type { ConfigIssue } from './errors/errors.ts';
export {
  MemConditionError,
  MemConfigError,
  MemConversionError,
  MemStoreConflictError,
  MemStoreError,
  MemSummarizerError,
  MemValidationError,
} from './errors/errors.ts';
export type { MemErrorCode, MemErrorOptions } from './errors/mem-error.ts';
export { MemError } from './errors/mem-error.ts';
export { Memory } from './facades/memory/memory.ts';
export type {
  MemoryChangeReason,
  MemoryEvent,
  MemoryEvents,
  MemoryListener,
} from './facades/memory/memory-events.ts';
export type { MemoryOptions } from './facades/memory/memory-options.ts';
export type { MemoryView } from './facades/memory/memory-view.ts';
export type { MemoryStrategy } from './facades/memory/strategy-profile.ts';
export { strategyProfile } from './facades/memory/strategy-profile.ts';
export type { MemoryAddOptions } from './facades/memory/turn-messages.ts';
export type {
  AddContextOptions,
  AddEntryOptions,
  AddToolResultOptions,
} from './facades/memory-manager/entry-input.ts';
export type {
  CompressionResult,
  MemoryEntry,
  MemoryEntryRole,
  MemoryEntryType,
  MemorySessionState,
  MemorySessionStateInput,
  MemoryStats,
  MemorySummary,
} from './facades/memory-manager/memory-entry.ts';
export { MemoryManager } from './facades/memory-manager/memory-manager.ts';
export type {
  MemoryConfig,
  MemoryManagerOptions,
  SummarizeCallback,
} from './facades/memory-manager/memory-manager-config.ts';
export { DEFAULT_MEMORY_CONFIG } from './facades/memory-manager/memory-manager-config.ts';
export type {
  MemoryManagerEvent,
  MemoryManagerEvents,
  MemoryManagerListener,
} from './facades/memory-manager/memory-manager-events.ts';
export { DEFAULT_SUMMARIZE_PROMPT } from './facades/memory-manager/summarize-callback.ts';
export type { AnalyzeOptions } from './knowledge/analyze-text.ts';
export { analyzeText, normalizeText, STOPWORDS } from './knowledge/analyze-text.ts';
export type { IndexedChunk, ScoredChunk } from './knowledge/bm25-index.ts';
export { Bm25Index } from './knowledge/bm25-index.ts';
export type {
  ArchiveIndexSource,
  IndexSource,
  SummaryIndexSource,
} from './knowledge/chunk-for-index.ts';
export { chunkForIndex } from './knowledge/chunk-for-index.ts';
export { keepsSimilarity, normalizeVector } from './knowledge/cosine.ts';
export { embedTexts } from './knowledge/embed-texts.ts';
export type { Embedder, EmbedOptions, EmbedResult } from './knowledge/embedder-spec.ts';
export { EMBEDDER_SPECIFICATION_VERSION } from './knowledge/embedder-spec.ts';
export type {
  KnowledgeBase,
  KnowledgeBaseCapabilities,
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
export { createMemoryKnowledgeBase } from './knowledge/memory-knowledge-base.ts';
export type { MemoryKnowledgeBaseOptions } from './knowledge/memory-knowledge-base-options.ts';
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
export type { SplitTextOptions, TextSpan } from './knowledge/text-splitter.ts';
export { splitText, splitTextSpans } from './knowledge/text-splitter.ts';
export {
  assertValidCollectionId,
  MAX_COLLECTION_ID_LENGTH,
} from './knowledge/validate-collection-id.ts';
export { fromModelMessages, toModelMessages } from './model/convert/ai-sdk.ts';
export type {
  AiSdkAssistantMessage,
  AiSdkSystemMessage,
  AiSdkToolMessage,
  AiSdkUserMessage,
  ModelMessageLike,
} from './model/convert/ai-sdk-types.ts';
export { fromAnthropicMessages, toAnthropicMessages } from './model/convert/anthropic.ts';
export type {
  AnthropicContentBlock,
  AnthropicInput,
  AnthropicInputBlock,
  AnthropicInputMessage,
  AnthropicMessageParam,
  AnthropicPrompt,
} from './model/convert/anthropic-types.ts';
export type { FromWireOptions } from './model/convert/convert-options.ts';
export { fromOpenAIMessages, toOpenAIMessages } from './model/convert/openai.ts';
export type {
  OpenAIAssistantMessage,
  OpenAIChatMessage,
  OpenAIDeveloperMessage,
  OpenAISystemMessage,
  OpenAIToolMessage,
  OpenAIUserMessage,
} from './model/convert/openai-types.ts';
export type { Interaction } from './model/interaction.ts';
export type { ConversationView } from './model/interaction-log.ts';
export { groupInteractions, InteractionLog } from './model/interaction-log.ts';
export type {
  ContentPart,
  CountedMessage,
  FilePart,
  ImagePart,
  Message,
  ProviderPart,
  ReasoningPart,
  Role,
  TextPart,
  ToolCall,
  WireFormat,
} from './model/message.ts';
export { isSummaryMessage, messageText } from './model/message.ts';
export { contentPartSchema, messageSchema, toolCallSchema } from './model/message-schema.ts';
export { isValidPrompt, promptProblems, sanitizeInteraction } from './model/prompt-validity.ts';
export type { EncodedMessage } from './store/encode-message-batch.ts';
export {
  encodeCountedMessage,
  encodeMessageBatch,
  readIdempotencyKey,
} from './store/encode-message-batch.ts';
export { decodeListCursor, encodeListCursor } from './store/list-cursor.ts';
export type { MemoryBackend, MemoryStoreOptions } from './store/memory-store.ts';
export { createMemoryBackend, createMemoryStore } from './store/memory-store.ts';
export { parseSessionSnapshot } from './store/parse-session-snapshot.ts';
export {
  parseCompactInput,
  parseCountedMessages,
  parseEraseInput,
  parseIdempotencyKey,
  parseListOptions,
  parseReadOptions,
  parseReplaceInput,
} from './store/parse-store-input.ts';
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
  IdempotencyRecord,
  ListOptions,
  ListResult,
  ReadOptions,
  ReadResult,
  ReplaceInput,
  SessionInfo,
  SessionSnapshot,
  Store,
  StoreCapabilities,
  StoredMessage,
  SummaryRecord,
} from './store/store-spec.ts';
export { STORE_SPECIFICATION_VERSION } from './store/store-spec.ts';
export { isStoredMessageShape, isSummaryRecordShape } from './store/stored-shape.ts';
export {
  assertValidNamespace,
  assertValidSessionId,
  MAX_SESSION_ID_LENGTH,
  namespaceOption,
} from './store/validate-ids.ts';
export {
  conditionFilter,
  createShortTermStrategies,
} from './strategies/short-term/from-profile.ts';
export type {
  MaxTokensStrategyOptions,
  MessageFilter,
} from './strategies/short-term/max-tokens-strategy.ts';
export { createMaxTokensStrategy } from './strategies/short-term/max-tokens-strategy.ts';
export type {
  ShortTermStrategy,
  WindowSelection,
} from './strategies/short-term/short-term-strategy.ts';
export { selectionMessages, selectWindow } from './strategies/short-term/short-term-strategy.ts';
export { densifyPrompt, initialSummaryPrompt, SUMMARY_FOCUS } from './summarize/cod-prompts.ts';
export { looksLikeErrorText } from './summarize/error-text.ts';
export type {
  ExtractiveSummarizer,
  ExtractiveSummaryOptions,
} from './summarize/extractive-summarizer.ts';
export {
  createExtractiveSummarizer,
  extractiveSummary,
  extractiveSummaryOfText,
  MIN_EXTRACTIVE_SUMMARY_TOKENS,
} from './summarize/extractive-summarizer.ts';
export type { SummaryCheck, SummaryCheckOptions } from './summarize/is-usable-summary.ts';
export { checkSummary, isUsableSummary } from './summarize/is-usable-summary.ts';
export { parseTranscript } from './summarize/parse-transcript.ts';
export type { RenderTranscriptOptions } from './summarize/render-transcript.ts';
export { renderTranscript } from './summarize/render-transcript.ts';
export type { RunSummarizerParams, SummaryOutcome } from './summarize/run-summarizer.ts';
export { runSummarizer } from './summarize/run-summarizer.ts';
export type {
  SummarizeOptions,
  SummarizeResult,
  Summarizer,
  SummarizerCapabilities,
  SummarizerFunction,
  SummarizerObject,
  SummarizeUsage,
} from './summarize/summarizer.ts';
export { isSummarizerObject, runsChainOfDensity } from './summarize/summarizer.ts';
export type { SummarySource } from './summarize/summary-grounding.ts';
export { summarySource } from './summarize/summary-grounding.ts';
export { SUMMARY_HEADER_TITLE } from './summarize/summary-header.ts';
export type { TranscriptEntry, TranscriptToolCall } from './summarize/transcript-entry.ts';
export type { TokenCounter, TokenCounterOptions, TokenEncoding } from './tokens/token-counter.ts';
export {
  createTokenCounter,
  MESSAGE_OVERHEAD_TOKENS,
  NAME_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  TOOL_CALL_OVERHEAD_TOKENS,
  withTokenCount,
} from './tokens/token-counter.ts';
