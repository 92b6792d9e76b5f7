import { type Embedder, type EmbedOptions, MemError, MemStoreError } from '@mem/core';

/**
 * Embeds `texts` in batches of `embedder.maxBatchSize`, one call at a time, and checks what comes
 * back: one vector per text, each of `embedder.dimensions` finite numbers.
 *
 * @throws the embedder's MemError as is; anything else as MemStoreError with it as `cause`.
 */
export async function embedTexts(
  embedder: Embedder,
  texts: readonly string[],
  purpose: EmbedOptions['purpose'],
): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += embedder.maxBatchSize) {
    const batch = texts.slice(start, start + embedder.maxBatchSize);
    let embeddings: unknown;
    try {
      ({ embeddings } = await embedder.embed(batch, { purpose }));
    } catch (error) {
      if (MemError.isInstance(error)) throw error;
      throw new MemStoreError(
        `[mem/sqlite] embedder ${JSON.stringify(embedder.id)} failed: ${(error as Error)?.message ?? String(error)}. Nothing was written; retry the call.`,
        { cause: error },
      );
    }
    if (!Array.isArray(embeddings) || embeddings.length !== batch.length) {
      throw badOutput(embedder, `${batch.length} vectors expected`);
    }
    for (const vector of embeddings as unknown[]) {
      if (
        !Array.isArray(vector) ||
        vector.length !== embedder.dimensions ||
        !vector.every((x) => typeof x === 'number' && Number.isFinite(x))
      ) {
        throw badOutput(embedder, `each vector must be ${embedder.dimensions} finite numbers`);
      }
      vectors.push(Float32Array.from(vector));
    }
  }
  return vectors;
}

function badOutput(embedder: Embedder, what: string): MemStoreError {
  return new MemStoreError(
    `[mem/sqlite] embedder ${JSON.stringify(embedder.id)} returned malformed embeddings (${what}). Nothing was written; check the embedder's dimensions.`,
  );
}
