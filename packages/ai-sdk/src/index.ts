/**
 * `@mem/ai-sdk`: mem for the Vercel AI SDK (`ai` 6 and 7). `memoryMiddleware` plugs a mem session
 * into any language model through `wrapLanguageModel`.
 */

export type { HistoryConflictReason } from './history-errors.ts';
export { MemHistoryConflictError } from './history-errors.ts';
export { memoryMiddleware } from './memory-middleware.ts';
export type { MemoryMiddlewareOptions } from './memory-middleware-options.ts';
export type {
  CallOptionsLike,
  GenerateResultLike,
  MemoryMiddleware,
  PromptMessageLike,
  ResultContentLike,
  StreamResultLike,
  UsageLike,
} from './middleware-types.ts';
export type { ChangedHistory } from './store-prompt.ts';
