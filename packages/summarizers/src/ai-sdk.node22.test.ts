import { createAnthropic } from '@ai-sdk/anthropic-v4';
import { createOpenAI } from '@ai-sdk/openai-v4';
import { APICallError } from 'ai-v7';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { providerFailure } from './__fixtures__/provider-failure.ts';
import {
  fakeEmbedding,
  type ProviderServer,
  startProviderServer,
} from './__fixtures__/provider-server.ts';
import { aiSdkChatModel } from './ai-sdk-chat-model.ts';
import { aiSdkEmbedder } from './ai-sdk-embedder.ts';
import type { ChatRequest } from './chat-model.ts';

// The app installs ai 7: `ai` resolves to it. (The workspace's `ai` is 6; `ai-v7` is the real 7.)
vi.mock('ai', () => import('ai-v7'));

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

describe('aiSdkChatModel on ai 7', () => {
  it('runs on ai 7 itself', async () => {
    const ai = await import('ai');
    expect(ai.generateText).toBe((await import('ai-v7')).generateText);
  });

  it('calls an @ai-sdk/openai 4 chat model and maps the reply', async () => {
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
    // generateText of ai 7 marks the request with its version.
    expect(server.requests[0]?.headers['user-agent']).toContain('ai/7.');
    expect(response).toEqual({
      text: 'the cat sat',
      usage: { inputTokens: expect.any(Number), outputTokens: 3 },
      finishReason: 'stop',
    });
  });

  it('calls an @ai-sdk/anthropic 4 model; JSON adds the rule to the system; maps max_tokens', async () => {
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
    [429, 'rate-limited', true],
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

  it('maps aborts', async () => {
    server.plan({ hang: true });
    const started = Date.now();
    const aborted = await providerFailure(
      aiSdkChatModel(openai().chat('m')).generate(request({ signal: AbortSignal.timeout(150) })),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(aborted).toMatchObject({ kind: 'aborted', retryable: false });
  });
});

describe('aiSdkEmbedder on ai 7', () => {
  it('embeds through embedMany with an @ai-sdk/openai 4 model, in order, with usage', async () => {
    const embedder = aiSdkEmbedder(openai().embedding('text-embedding-3-small'), {
      dimensions: 12,
      providerOptions: { openai: { dimensions: 12 } },
    });
    expect(embedder.id).toBe('ai-sdk:openai.embedding:text-embedding-3-small@12');
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
    });
  });
});
