import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerFailure } from './__fixtures__/provider-failure.ts';
import {
  countTokens,
  fakeEmbedding,
  type ProviderServer,
  startProviderServer,
} from './__fixtures__/provider-server.ts';
import { openAIEmbedder } from './openai-embedder.ts';

let server: ProviderServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startProviderServer();
  client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1` });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const texts = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

describe('openAIEmbedder', () => {
  it('asks for base64 and returns the decoded vectors in input order', async () => {
    const embedder = openAIEmbedder(client, { model: 'text-embedding-3-small', dimensions: 16 });
    expect(embedder).toMatchObject({
      specificationVersion: 'mem.embedder.v1',
      id: 'openai:text-embedding-3-small@16',
      dimensions: 16,
      maxBatchSize: 256,
    });
    // The server lists the vectors in reverse: the embedder must sort them by `index`.
    server.plan({
      body: {
        object: 'list',
        model: 'text-embedding-3-small',
        data: texts
          .map((text, index) => ({
            object: 'embedding',
            index,
            embedding: Buffer.from(new Float32Array(fakeEmbedding(text, 16)).buffer).toString(
              'base64',
            ),
          }))
          .reverse(),
        usage: { prompt_tokens: 5, total_tokens: 5 },
      },
    });
    const result = await embedder.embed(texts, { purpose: 'document' });
    expect(server.requests[0]?.body).toEqual({
      model: 'text-embedding-3-small',
      input: texts,
      encoding_format: 'base64',
      dimensions: 16,
    });
    expect(result.embeddings).toEqual(texts.map((t) => fakeEmbedding(t, 16)));
    expect(result.usage).toEqual({ inputTokens: 5 });
  });

  it('accepts float arrays from servers that ignore encoding_format', async () => {
    const embedder = openAIEmbedder(client, { model: 'nomic-embed-text', dimensions: 8 });
    server.plan({
      body: {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [1, 0, 0, 0, 0, 0, 0, 0] }],
        usage: { prompt_tokens: 1, total_tokens: 1 },
      },
    });
    const result = await embedder.embed(['x'], { purpose: 'query' });
    expect(result.embeddings).toEqual([[1, 0, 0, 0, 0, 0, 0, 0]]);
    // Only text-embedding-3 models are asked to resize.
    expect(server.requests[0]?.body).not.toHaveProperty('dimensions');
  });

  it('splits more than maxBatchSize texts into several requests and sums usage', async () => {
    const embedder = openAIEmbedder(client, { model: 'e5', dimensions: 8, maxBatchSize: 2 });
    const result = await embedder.embed(texts, { purpose: 'document' });
    expect(server.requests.map((r) => (r.body?.input as string[] | undefined)?.length)).toEqual([
      2, 2, 1,
    ]);
    expect(result.embeddings).toEqual(texts.map((t) => fakeEmbedding(t, 8)));
    expect(result.usage?.inputTokens).toBe(texts.reduce((sum, t) => sum + countTokens(t), 0));
  });

  it('returns no vectors and makes no request for no texts', async () => {
    const embedder = openAIEmbedder(client, { model: 'text-embedding-3-small' });
    expect(embedder.dimensions).toBe(1536);
    expect((await embedder.embed([], { purpose: 'document' })).embeddings).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('rejects vectors of the wrong length (not retryable) and a wrong count (retryable)', async () => {
    const embedder = openAIEmbedder(client, { model: 'nomic-embed-text', dimensions: 8 });
    server.embedWith((text) => fakeEmbedding(text, 4));
    const wrongLength = await providerFailure(embedder.embed(['a'], { purpose: 'document' }));
    expect(wrongLength).toMatchObject({ kind: 'invalid-request', retryable: false });
    expect(wrongLength.message).toMatch(/4 dimensions.*configured with 8/);

    server.plan({
      body: { object: 'list', data: [], usage: { prompt_tokens: 1, total_tokens: 1 } },
    });
    const wrongCount = await providerFailure(embedder.embed(['a'], { purpose: 'document' }));
    expect(wrongCount).toMatchObject({ kind: 'malformed-response', retryable: true });
  });

  it('maps HTTP errors and aborts to ProviderError', async () => {
    const embedder = openAIEmbedder(client, { model: 'e5', dimensions: 8 });
    server.plan({ status: 429, headers: { 'retry-after-ms': '40' } });
    expect(await providerFailure(embedder.embed(['a'], { purpose: 'query' }))).toMatchObject({
      status: 429,
      retryable: true,
      retryAfterMs: 40,
    });
    server.plan({ hang: true });
    const aborted = await providerFailure(
      embedder.embed(['a'], { purpose: 'query', signal: AbortSignal.timeout(100) }),
    );
    expect(aborted).toMatchObject({ kind: 'aborted', retryable: false });
  });

  it('lists every bad option at once', () => {
    expect(() => openAIEmbedder(client, { model: 'unknown-model', maxBatchSize: 0 })).toThrow(
      /2 problems[\s\S]*dimensions[\s\S]*maxBatchSize|2 problems[\s\S]*maxBatchSize[\s\S]*dimensions/,
    );
  });
});
