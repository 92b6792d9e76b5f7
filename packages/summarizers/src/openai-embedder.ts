import type { Embedder } from '@mem/core';
import { EMBEDDER_SPECIFICATION_VERSION, type EmbedResult } from '@mem/core/backend';
import { z } from 'zod';
import { checkEmbeddings, inBatches } from './check-embeddings.ts';
import { parseOptions } from './parse-options.ts';
import { ProviderError } from './provider-error.ts';
import { toProviderError } from './to-provider-error.ts';

export interface OpenAIEmbedderOptions {
  /** `text-embedding-3-small`, or the server's name (`nomic-embed-text` on Ollama). */
  model: string;
  /**
   * Length of every vector. Known OpenAI models have a default (3-small 1536, 3-large 3072,
   * ada-002 1536); any other model needs it. For `text-embedding-3-*` it is also sent as the
   * request's `dimensions`, which shortens the vectors; other models are not asked to resize.
   */
  dimensions?: number;
  /** Texts per request (default 256; OpenAI allows 2048 and 300k tokens per request). */
  maxBatchSize?: number;
}

const nativeDimensions: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

const optionsSchema = z
  .object({
    model: z.string().min(1, 'expected the model name, e.g. "text-embedding-3-small"'),
    dimensions: z.int().positive().optional(),
    maxBatchSize: z.int().positive().max(2048).optional(),
  })
  .refine((o) => o.dimensions !== undefined || nativeDimensions[o.model] !== undefined, {
    path: ['dimensions'],
    message: 'unknown model: pass the length of its vectors, e.g. dimensions: 768',
  });

/** A vector as the API sends it: float32 little-endian in base64, or a plain array of numbers. */
function decode(embedding: unknown): number[] {
  if (Array.isArray(embedding)) return embedding as number[];
  if (typeof embedding !== 'string') return [];
  const bytes = Buffer.from(embedding, 'base64');
  const floats = new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 4));
  return Array.from(floats);
}

/**
 * A core `Embedder` on the official `openai` SDK (`embeddings.create`), for OpenAI and
 * OpenAI-compatible servers. Asks for base64 vectors (a quarter of the JSON) and also accepts
 * servers that answer with float arrays. Vectors come back in input order, checked for count and
 * length. No retries: wrap it in `embedderWithRetries`.
 */
/** The part of an `openai` client (SDK 5, 6 or 7, or a compatible one) the embedder uses. */
export interface OpenAIEmbeddingsClient {
  readonly embeddings: {
    create(
      body: {
        model: string;
        input: string[];
        encoding_format: 'base64';
        dimensions?: number;
      },
      options: { signal?: AbortSignal; maxRetries?: number },
    ): PromiseLike<OpenAIEmbeddingResponse>;
  };
}

/** The fields of an embeddings reply the embedder reads. */
export interface OpenAIEmbeddingResponse {
  data: readonly { index: number; embedding: number[] | string }[];
  usage?: { prompt_tokens: number } | undefined;
}

export function openAIEmbedder(
  client: OpenAIEmbeddingsClient,
  options: OpenAIEmbedderOptions,
): Embedder {
  const opts = parseOptions(optionsSchema, options, 'openAIEmbedder options');
  const dimensions = opts.dimensions ?? (nativeDimensions[opts.model] as number);
  const sendDimensions = opts.dimensions !== undefined && opts.model.startsWith('text-embedding-3');
  const maxBatchSize = opts.maxBatchSize ?? 256;
  const provider = 'openai';

  async function embedBatch(
    texts: string[],
    signal: AbortSignal | undefined,
  ): Promise<EmbedResult> {
    let response: OpenAIEmbeddingResponse;
    try {
      response = await client.embeddings.create(
        {
          model: opts.model,
          input: texts,
          encoding_format: 'base64',
          ...(sendDimensions ? { dimensions } : {}),
        },
        { maxRetries: 0, ...(signal === undefined ? {} : { signal }) },
      );
    } catch (error) {
      throw toProviderError(provider, error, signal);
    }
    if (!Array.isArray(response.data)) {
      throw new ProviderError({
        kind: 'malformed-response',
        provider,
        detail: 'the reply has no data array',
        retryable: true,
      });
    }
    const ordered = [...response.data].sort((a, b) => a.index - b.index);
    const embeddings = checkEmbeddings(
      provider,
      ordered.map((d) => decode(d.embedding)),
      texts.length,
      dimensions,
    );
    const tokens = response.usage?.prompt_tokens;
    return typeof tokens === 'number'
      ? { embeddings, usage: { inputTokens: tokens } }
      : { embeddings };
  }

  return {
    specificationVersion: EMBEDDER_SPECIFICATION_VERSION,
    id: `openai:${opts.model}@${dimensions}`,
    dimensions,
    maxBatchSize,
    async embed(texts, { signal }) {
      const embeddings: number[][] = [];
      let inputTokens: number | undefined;
      for (const batch of inBatches(texts, maxBatchSize)) {
        const result = await embedBatch(batch, signal);
        embeddings.push(...result.embeddings);
        if (result.usage) inputTokens = (inputTokens ?? 0) + result.usage.inputTokens;
      }
      return inputTokens === undefined ? { embeddings } : { embeddings, usage: { inputTokens } };
    },
  };
}
