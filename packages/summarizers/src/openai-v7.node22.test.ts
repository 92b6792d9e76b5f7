import OpenAI, { APIError } from 'openai-v7';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerFailure } from './__fixtures__/provider-failure.ts';
import {
  fakeEmbedding,
  type ProviderServer,
  startProviderServer,
} from './__fixtures__/provider-server.ts';
import type { ChatRequest } from './chat-model.ts';
import { openAIChatModel } from './openai-chat-model.ts';
import { openAIEmbedder } from './openai-embedder.ts';

// The same chat model and embedder, given a client of the openai SDK 7.

let server: ProviderServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startProviderServer();
  client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const request = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  system: 'You summarize.',
  prompt: 'Summarize: the cat sat on the mat.',
  maxOutputTokens: 200,
  json: false,
  signal: AbortSignal.timeout(5_000),
  ...over,
});

describe('openAIChatModel with openai 7', () => {
  it('sends model, system and user messages, max_tokens and temperature 0', async () => {
    server.respondWith((r) => `summary of ${r.prompt.length} chars`);
    const response = await openAIChatModel(client, { model: 'gpt-4o-mini' }).generate(request());
    expect(server.requests[0]?.headers['user-agent']).toMatch(/OpenAI\/JS 7\./);
    expect(server.requests[0]?.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You summarize.' },
        { role: 'user', content: 'Summarize: the cat sat on the mat.' },
      ],
      max_tokens: 200,
      temperature: 0,
    });
    expect(response).toEqual({
      text: 'summary of 34 chars',
      usage: { inputTokens: expect.any(Number), outputTokens: 5 },
      finishReason: 'stop',
    });
  });

  it('asks for a JSON object and maps a truncated reply', async () => {
    server.plan({ truncated: true, text: '{"summary": "the cat' });
    const response = await openAIChatModel(client, { model: 'm' }).generate(
      request({ json: true }),
    );
    expect(server.requests[0]?.body).toMatchObject({ response_format: { type: 'json_object' } });
    expect(response).toMatchObject({ text: '{"summary": "the cat', finishReason: 'length' });
  });

  it.each([
    [400, 'invalid-request', false],
    [429, 'rate-limited', true],
    [500, 'server', true],
  ] as const)(
    'maps HTTP %i to ProviderError %s (retryable %s)',
    async (status, kind, retryable) => {
      server.plan({ status, headers: { 'retry-after': '1' } });
      const error = await providerFailure(
        openAIChatModel(client, { model: 'm' }).generate(request()),
      );
      expect(error).toMatchObject({
        status,
        kind,
        retryable,
        provider: 'openai',
        retryAfterMs: 1000,
      });
      expect(error.cause).toBeInstanceOf(APIError);
    },
  );

  it('maps aborts', async () => {
    server.plan({ hang: true });
    const aborted = await providerFailure(
      openAIChatModel(client, { model: 'm' }).generate(
        request({ signal: AbortSignal.timeout(150) }),
      ),
    );
    expect(aborted).toMatchObject({ kind: 'aborted', retryable: false });
  });
});

describe('openAIEmbedder with openai 7', () => {
  it('decodes base64 vectors in input order, with usage', async () => {
    const embedder = openAIEmbedder(client, { model: 'text-embedding-3-small', dimensions: 16 });
    const texts = ['alpha', 'beta', 'gamma'];
    const result = await embedder.embed(texts, { purpose: 'document' });
    expect(server.requests[0]?.body).toEqual({
      model: 'text-embedding-3-small',
      input: texts,
      encoding_format: 'base64',
      dimensions: 16,
    });
    expect(result.embeddings).toEqual(texts.map((t) => fakeEmbedding(t, 16)));
    expect(result.usage?.inputTokens).toBeGreaterThan(0);
  });

  it('rejects vectors of the wrong length and maps HTTP errors', async () => {
    const embedder = openAIEmbedder(client, { model: 'nomic-embed-text', dimensions: 8 });
    server.embedWith((text) => fakeEmbedding(text, 4));
    expect(await providerFailure(embedder.embed(['a'], { purpose: 'query' }))).toMatchObject({
      kind: 'invalid-request',
      retryable: false,
    });
    server.plan({ status: 503 });
    expect(await providerFailure(embedder.embed(['a'], { purpose: 'query' }))).toMatchObject({
      status: 503,
      retryable: true,
    });
  });
});
