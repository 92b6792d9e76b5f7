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
export type {
  AppendOptions,
  AppendResult,
  CompactInput,
  CompactResult,
  EraseInput,
  EraseResult,
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
export {
  assertValidNamespace,
  assertValidSessionId,
  MAX_SESSION_ID_LENGTH,
} from './store/validate-ids.ts';
