import { ProviderError } from './provider-error.ts';

/**
 * Checks a provider's vectors against what the `Embedder` promised: one per text, each of
 * `dimensions` finite numbers. A wrong count is a malformed reply (retryable); a wrong length means
 * the configured `dimensions` do not match the model (not retryable).
 */
export function checkEmbeddings(
  provider: string,
  vectors: readonly (readonly number[])[],
  expectedCount: number,
  dimensions: number,
): number[][] {
  if (vectors.length !== expectedCount) {
    throw new ProviderError({
      kind: 'malformed-response',
      provider,
      detail: `got ${vectors.length} embeddings for ${expectedCount} texts`,
      retryable: true,
    });
  }
  return vectors.map((vector, i) => {
    if (vector.length !== dimensions) {
      throw new ProviderError({
        kind: 'invalid-request',
        provider,
        detail:
          `embedding ${i} has ${vector.length} dimensions, the embedder was configured with ${dimensions}; ` +
          'set `dimensions` to what the model returns (or ask the model for that many)',
        retryable: false,
      });
    }
    if (!vector.every(Number.isFinite)) {
      throw new ProviderError({
        kind: 'malformed-response',
        provider,
        detail: `embedding ${i} contains a non-finite number`,
        retryable: true,
      });
    }
    return Array.from(vector);
  });
}

/** `items` cut into consecutive slices of at most `size`. */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}
