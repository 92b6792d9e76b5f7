/*
 * The parts of the AI SDK's language-model middleware contract this package touches, written
 * structurally so one middleware fits `LanguageModelV3Middleware` (`ai` 6) and the `ai` 7
 * `LanguageModelMiddleware` (V4 parameters) without importing either at run time. The generic
 * signatures let TypeScript instantiate them with each major's own call options and results.
 */

/** A provider prompt message (`LanguageModelV3Message` / `LanguageModelV4Message`). */
export interface PromptMessageLike {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: unknown;
  providerOptions?: unknown;
}

/** The call options the middleware reads (`LanguageModelV3CallOptions` and its V4 successor). */
export interface CallOptionsLike {
  prompt: readonly PromptMessageLike[];
  /** The call's abort signal: an aborted call stores nothing of its answer. */
  abortSignal?: AbortSignal | undefined;
  /** The call's HTTP headers: `sessionId` and `userId` functions may read them. */
  headers?: Record<string, string | undefined> | undefined;
}

/** One content item of a generate result (text, reasoning, tool call, file, source, ...). */
export interface ResultContentLike {
  type: string;
  [key: string]: unknown;
}

/** Provider usage: `inputTokens.total` is what mem's `input_tokens_threshold` reads. */
export interface UsageLike {
  inputTokens?: { total?: number | undefined } | number | undefined;
  outputTokens?: { total?: number | undefined } | number | undefined;
}

export interface GenerateResultLike {
  content: readonly ResultContentLike[];
  usage?: UsageLike;
}

export interface StreamResultLike {
  stream: ReadableStream<unknown>;
}

/** What `memoryMiddleware` returns: pass it to `wrapLanguageModel({ model, middleware })`. */
export interface MemoryMiddleware {
  /** `v3`: `ai` 6 requires it; `ai` 7 accepts v3 middleware as well. */
  readonly specificationVersion: 'v3';
  transformParams: <P extends CallOptionsLike>(options: {
    type: 'generate' | 'stream';
    params: P;
    model: unknown;
  }) => PromiseLike<P>;
  wrapGenerate: <P extends CallOptionsLike, R extends GenerateResultLike>(options: {
    doGenerate: () => PromiseLike<R>;
    doStream: () => PromiseLike<StreamResultLike>;
    params: P;
    model: unknown;
  }) => PromiseLike<R>;
  wrapStream: <P extends CallOptionsLike, R extends StreamResultLike>(options: {
    doGenerate: () => PromiseLike<GenerateResultLike>;
    doStream: () => PromiseLike<R>;
    params: P;
    model: unknown;
  }) => PromiseLike<R>;
}
