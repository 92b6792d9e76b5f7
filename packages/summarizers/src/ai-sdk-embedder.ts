import type { Embedder } from '@mem/core';
import { EMBEDDER_SPECIFICATION_VERSION } from '@mem/core/backend';
import { type EmbeddingModel, embedMany } from 'ai';
import { z } from 'zod';
import { type AiSdkModel, aiSdkModelId, unwrapAiSdkError } from './ai-sdk-chat-model.ts';
import { checkEmbeddings } from './check-embeddings.ts';
import { parseOptions } from './parse-options.ts';
import { toProviderError } from './to-provider-error.ts';

type EmbedManyOptions = Parameters<typeof embedMany>[0];

export interface AiSdkEmbedderOptions {
  /** Length of the model's vectors (checked on every reply). Required: the AI SDK does not say. */
  dimensions: number;
  /** Texts per `embed` call (default 256). `embedMany` splits further by the model's own limit. */
  maxBatchSize?: number;
  /** Passed to `embedMany` as is, e.g. `{ openai: { dimensions: 512 } }` to shorten vectors. */
  providerOptions?: EmbedManyOptions['providerOptions'];
  /** Overrides the `Embedder.id` (default `ai-sdk:<provider>:<modelId>@<dimensions>`). */
  id?: string;
}

const optionsSchema = z.object({
  dimensions: z.int('expected the length of the model vectors, e.g. 1536').positive(),
  maxBatchSize: z.int().positive().optional(),
  providerOptions: z.record(z.string(), z.unknown()).optional(),
  id: z.string().min(1).optional(),
});

/**
 * A core `Embedder` on the AI SDK (`embedMany` from the `ai` the app installs, 6 or 7;
 * `maxRetries: 0`), for any provider's embedding model, e.g.
 * `createOpenAI().embedding('text-embedding-3-small')`. Vectors in input order, checked
 * for count and length. No retries: wrap it in `embedderWithRetries`.
 */
export function aiSdkEmbedder(model: AiSdkModel, options: AiSdkEmbedderOptions): Embedder {
  const opts = parseOptions(optionsSchema, options, 'aiSdkEmbedder options');
  const provider = 'ai-sdk';
  const name = aiSdkModelId(model);

  return {
    specificationVersion: EMBEDDER_SPECIFICATION_VERSION,
    id: opts.id ?? `${name}@${opts.dimensions}`,
    dimensions: opts.dimensions,
    maxBatchSize: opts.maxBatchSize ?? 256,
    async embed(texts, { signal }) {
      if (texts.length === 0) return { embeddings: [] };
      let result: Awaited<ReturnType<typeof embedMany>>;
      try {
        result = await embedMany({
          model: model as EmbeddingModel,
          values: [...texts],
          maxRetries: 0,
          ...(signal === undefined ? {} : { abortSignal: signal }),
          ...(options.providerOptions === undefined
            ? {}
            : { providerOptions: options.providerOptions }),
        });
      } catch (error) {
        throw toProviderError(provider, unwrapAiSdkError(error), signal);
      }
      const embeddings = checkEmbeddings(
        provider,
        result.embeddings,
        texts.length,
        opts.dimensions,
      );
      const tokens = result.usage?.tokens;
      return typeof tokens === 'number' && tokens > 0
        ? { embeddings, usage: { inputTokens: tokens } }
        : { embeddings };
    },
  };
}
