/**
 * `@mem/core`, for users of the library: the engine, the `Memory` and `MemoryManager` facades,
 * profile parsing, the in-memory store and knowledge base, the token counter, the extractive
 * summarizer, the wire-format converters and the errors. Store and knowledge-base authors use
 * `@mem/core/backend`; building blocks are in `@mem/core/strategies`; summarizer authors use
 * `@mem/core/summarize`; test helpers are in `@mem/core/testing`.
 */

export type { MemoryProfile, ParseOptions } from './config/parse-profile.ts';
export { parseProfile } from './config/parse-profile.ts';
export type {
  KnowledgeBaseConfig,
  LongTermStrategyConfig,
  NeuralyzerStrategyConfig,
  PersistenceStrategy,
  ProfileConfig,
  ProfileInput,
  ProfileLongTermConfig,
  ShortTermStrategyConfig,
  SummarizerStrategyConfig,
  TextSplitterConfig,
} from './config/profile-schema.ts';
export { isNeuralyzerConfig, isSummarizerConfig, profileSchema } from './config/profile-schema.ts';
export type {
  FallbackReason,
  MemoryEngineEvent,
  MemoryEngineEvents,
} from './engine/engine-events.ts';
export type {
  ForgetUserReport,
  MemoryEngine,
  MemoryEngineOptions,
  SessionOptions,
  UserMemory,
} from './engine/memory-engine.ts';
export { createMemoryEngine } from './engine/memory-engine.ts';
export type {
  AppendedMessages,
  ContextOptions,
  MemoryContext,
  MemorySession,
  MessageInput,
  SessionAppendOptions,
  SessionContextOptions,
  SummarizeNowOptions,
} from './engine/memory-session.ts';
export type { TokenCounterForModel } from './engine/model-countings.ts';
export type { TokenAccuracy } from './engine/token-accuracy.ts';
export type { ConfigIssue, ConflictCounter } from './errors/errors.ts';
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
export type {
  FactExtractor,
  FactExtractorInput,
  FactExtractorOptions,
  FactExtractorV1,
  FactOperation,
} from './facts/fact-extractor.ts';
export { FACT_EXTRACTOR_SPECIFICATION_VERSION } from './facts/fact-extractor.ts';
export type { RuleFactExtractorOptions } from './facts/rule-extractor.ts';
export { createRuleFactExtractor } from './facts/rule-extractor.ts';
export type { Embedder } from './knowledge/embedder-spec.ts';
export { createInMemoryKnowledgeBase } from './knowledge/in-memory-knowledge-base.ts';
export type { InMemoryKnowledgeBaseOptions } from './knowledge/in-memory-knowledge-base-options.ts';
export type {
  KnowledgeBase,
  KnowledgeChunk,
  KnowledgeChunkMetadata,
  KnowledgeHit,
} from './knowledge/knowledge-base-spec.ts';
export { fromModelMessages, toModelMessages } from './model/convert/ai-sdk.ts';
export type { ModelPrompt, ModelPromptOptions } from './model/convert/ai-sdk-prompt.ts';
export { toModelPrompt } from './model/convert/ai-sdk-prompt.ts';
export type {
  AiSdkAssistantMessage,
  AiSdkInputPart,
  AiSdkSystemMessage,
  AiSdkToolMessage,
  AiSdkUserMessage,
  ModelMessageInput,
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
  OpenAIChatMessageInput,
  OpenAIDeveloperMessage,
  OpenAISystemMessage,
  OpenAIToolMessage,
  OpenAIUserMessage,
} from './model/convert/openai-types.ts';
export { fromResponsesItems, toResponsesInput } from './model/convert/responses.ts';
export type {
  ResponsesFunctionCallItem,
  ResponsesFunctionCallOutputItem,
  ResponsesInputContent,
  ResponsesItem,
  ResponsesItemLike,
  ResponsesMessageItem,
} from './model/convert/responses-types.ts';
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
export { messageSchema } from './model/message-schema.ts';
export type { InMemoryBackend, InMemoryStoreOptions } from './store/in-memory-store.ts';
export { createInMemoryBackend, createInMemoryStore } from './store/in-memory-store.ts';
export type {
  ForgetUserResult,
  SessionInfo,
  Store,
  StoredMessage,
  SummaryRecord,
  UserFact,
  UserFacts,
} from './store/store-spec.ts';
export type {
  CustomLongTermConfig,
  LongTermPlan,
  LongTermStrategy,
} from './strategies/long-term/long-term-strategy.ts';
export type {
  ExtractiveSummarizer,
  ExtractiveSummaryOptions,
} from './summarize/extractive-summarizer.ts';
export { createExtractiveSummarizer } from './summarize/extractive-summarizer.ts';
export type {
  SummarizeOptions,
  SummarizeResult,
  Summarizer,
  SummarizerFunction,
  SummarizerObject,
  SummarizeUsage,
} from './summarize/summarizer.ts';
export { SUMMARIZER_SPECIFICATION_VERSION } from './summarize/summarizer.ts';
export type {
  SummaryGate,
  SummaryGateContext,
  SummaryGateFunction,
  SummaryGateVerdict,
} from './summarize/summary-gate.ts';
export type { ModelCounting } from './tokens/model-counting.ts';
export { modelCounting } from './tokens/model-counting.ts';
export type { TokenCounter, TokenCounterOptions, TokenEncoding } from './tokens/token-counter.ts';
export { createTokenCounter } from './tokens/token-counter.ts';
