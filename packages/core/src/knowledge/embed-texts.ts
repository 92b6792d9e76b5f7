import { MemStoreError } from '../errors/errors.ts';
import { MemError } from '../errors/mem-error.ts';
import type { Embedder, EmbedOptions } from './embedder-spec.ts';

/**
 * Embeds `texts` in batches of `embedder.maxBatchSize`, one call at a time, and checks what comes
 * back: one vector per text, each of `embedder.dimensions` finite numbers. `label` starts the
 * error messages (`mem/sqlite`).
 *
 * @throws the embedder's MemError as is; anything else as MemStoreError with it as `cause`.
 */
export async function embedTexts(
  embedder: Embedder,
  texts: readonly string[],
  purpose: EmbedOptions['purpose'],
  label: string,
): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  const what = purpose === 'document' ? 'Nothing was written' : 'Nothing was searched';
  for (let start = 0; start < texts.length; start += embedder.maxBatchSize) {
    const batch = texts.slice(start, start + embedder.maxBatchSize);
    let embeddings: unknown;
    try {
      ({ embeddings } = await embedder.embed(batch, { purpose }));
    } catch (error) {
      if (MemError.isInstance(error)) throw error;
      throw new MemStoreError(
        `[${label}] embedder ${JSON.stringify(embedder.id)} failed: ${(error as Error)?.message ?? String(error)}. ${what}; retry the call.`,
        { cause: error },
      );
    }
    if (!Array.isArray(embeddings) || embeddings.length !== batch.length) {
      throw badOutput(label, embedder, `${batch.length} vectors expected`, what);
    }
    for (const vector of embeddings as unknown[]) {
      if (
        !Array.isArray(vector) ||
        vector.length !== embedder.dimensions ||
        !vector.every((x) => typeof x === 'number' && Number.isFinite(x))
      ) {
        const expected = `each vector must be ${embedder.dimensions} finite numbers`;
        throw badOutput(label, embedder, expected, what);
      }
      vectors.push(Float32Array.from(vector));
    }
  }
  return vectors;
}

function badOutput(label: string, embedder: Embedder, expected: string, what: string) {
  return new MemStoreError(
    `[${label}] embedder ${JSON.stringify(embedder.id)} returned malformed embeddings (${expected}). ${what}; check the embedder's dimensions.`,
  );
}
