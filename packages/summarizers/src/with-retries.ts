import type { Embedder } from '@mem/core';
import type { ChatModel } from './chat-model.ts';
import { type RetryOptions, retrying, retryPolicy } from './retrying.ts';

/**
 * `model` with a retry policy: retryable `ProviderError`s (429, 408, 409, 5xx, 529, network,
 * malformed reply) are retried with full-jitter exponential backoff (500 ms base, factor 2, 20 s
 * cap, 4 retries by default), waiting at least the provider's `retry-after`. Aborts are never
 * retried, and aborting `request.signal` during a wait rejects at once with its reason.
 */
export function withRetries(model: ChatModel, options?: RetryOptions): ChatModel {
  const policy = retryPolicy(options);
  return {
    id: model.id,
    generate: (request) => retrying(() => model.generate(request), policy, request.signal),
  };
}

/** `embedder` with the same retry policy as `withRetries`; each `embed` call is retried as a whole. */
export function embedderWithRetries(embedder: Embedder, options?: RetryOptions): Embedder {
  const policy = retryPolicy(options);
  return {
    specificationVersion: embedder.specificationVersion,
    id: embedder.id,
    dimensions: embedder.dimensions,
    maxBatchSize: embedder.maxBatchSize,
    embed: (texts, embedOptions) =>
      retrying(() => embedder.embed(texts, embedOptions), policy, embedOptions.signal),
  };
}
