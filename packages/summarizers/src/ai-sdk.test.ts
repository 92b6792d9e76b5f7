import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerFailure } from './__fixtures__/provider-failure.ts';
import {
  fakeEmbedding,
  type ProviderServer,
  startProviderServer,
} from './__fixtures__/provider-server.ts';
import { aiSdkChatModel } from './ai-sdk-chat-model.ts';
import { aiSdkEmbedder } from './ai-sdk-embedder.ts';
import type { ChatRequest } from './chat-model.ts';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const openai = () => createOpenAI({ apiKey: 'test', baseURL: `${server.url}/v1` });
const anthropic = () => createAnthropic({ apiKey: 'test', baseURL: `${server.url}/v1` });

const request = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  system: 'You summarize.',
  prompt: 'Summarize: the cat sat on the mat.',
  maxOutputTokens: 120,
  json: false,
  signal: AbortSignal.timeout(5_000),
  ...over,
});

describe('aiSdkChatModel', () => {
  it('calls an OpenAI chat model through generateText and maps the reply', async () => {
    server.respondWith(() => 'the cat sat');
    const model = aiSdkChatModel(openai().chat('gpt-4o-mini'));
    const response = await model.generate(request());
    expect(model.id).toBe('ai-sdk:openai.chat:gpt-4o-mini');
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(server.requests[0]?.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You summarize.' },
        { role: 'user', content: 'Summarize: the cat sat on the mat.' },
      ],
      max_tokens: 120,
      temperature: 0,
    });
    expect(response).toEqual({
      text: 'the cat sat',
      usage: { inputTokens: expect.any(Number), outputTokens: 3 },
      finishReason: 'stop',
    });
  });

  it('calls an Anthropic model; JSON adds the rule to the system prompt; maps max_tokens', async () => {
    server.plan({ truncated: true, text: '{"summary": "the c' });
    const model = aiSdkChatModel(anthropic()('claude-haiku-4-5'));
    const response = await model.generate(request({ json: true }));
    expect(server.requests[0]?.path).toBe('/v1/messages');
    expect(server.requests[0]?.body).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 120 });
    expect(JSON.stringify(server.requests[0]?.body?.system)).toMatch(/JSON object/);
    expect(response).toMatchObject({ text: '{"summary": "the c', finishReason: 'length' });
  });

  it.each([
    [400, 'invalid-request', false],
    [401, 'auth', false],
    [429, 'rate-limited', true],
    [500, 'server', true],
    [529, 'overloaded', true],
  ] as const)(
    'maps HTTP %i to ProviderError %s (retryable %s)',
    async (status, kind, retryable) => {
      server.plan({ status, headers: { 'retry-after': '1' } });
      const error = await providerFailure(
        aiSdkChatModel(anthropic()('claude-haiku-4-5')).generate(request()),
      );
      expect(error).toMatchObject({
        status,
        kind,
        retryable,
        provider: 'ai-sdk',
        retryAfterMs: 1000,
      });
      expect(APICallError.isInstance(error.cause)).toBe(true);
      expect(server.requests).toHaveLength(1);
    },
  );

  it('maps malformed JSON, refused connections and aborts', async () => {
    const model = aiSdkChatModel(openai().chat('m'));
    server.plan({ malformedJson: true });
    expect(await providerFailure(model.generate(request()))).toMatchObject({
      kind: 'malformed-response',
      retryable: true,
    });
    const dead = createOpenAI({ apiKey: 't', baseURL: 'http://127.0.0.1:1/v1' }).chat('m');
    expect(await providerFailure(aiSdkChatModel(dead).generate(request()))).toMatchObject({
      kind: 'network',
      retryable: true,
    });
    server.plan({ hang: true });
    const started = Date.now();
    const aborted = await providerFailure(
      model.generate(request({ signal: AbortSignal.timeout(150) })),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(aborted).toMatchObject({ kind: 'aborted', retryable: false });
  });
});

describe('aiSdkEmbedder', () => {
  it('embeds through embedMany, in order, with usage', async () => {
    const embedder = aiSdkEmbedder(openai().embedding('text-embedding-3-small'), {
      dimensions: 12,
      providerOptions: { openai: { dimensions: 12 } },
    });
    expect(embedder).toMatchObject({
      id: 'ai-sdk:openai.embedding:text-embedding-3-small@12',
      dimensions: 12,
      maxBatchSize: 256,
    });
    const texts = ['one', 'two', 'three'];
    const result = await embedder.embed(texts, { purpose: 'document' });
    expect(server.requests[0]?.path).toBe('/v1/embeddings');
    expect(server.requests[0]?.body).toMatchObject({ input: texts, dimensions: 12 });
    expect(result.embeddings).toEqual(texts.map((t) => fakeEmbedding(t, 12)));
    expect(result.usage?.inputTokens).toBeGreaterThan(0);
  });

  it('rejects the wrong dimensions and maps HTTP errors', async () => {
    const embedder = aiSdkEmbedder(openai().embedding('e'), { dimensions: 8 });
    server.embedWith((text) => fakeEmbedding(text, 3));
    expect(await providerFailure(embedder.embed(['a'], { purpose: 'query' }))).toMatchObject({
      kind: 'invalid-request',
      retryable: false,
    });
    server.plan({ status: 503 });
    expect(await providerFailure(embedder.embed(['a'], { purpose: 'query' }))).toMatchObject({
      status: 503,
      kind: 'overloaded',
      retryable: true,
    });
  });
});
