import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerFailure } from './__fixtures__/provider-failure.ts';
import { type ProviderServer, startProviderServer } from './__fixtures__/provider-server.ts';
import { anthropicChatModel } from './anthropic-chat-model.ts';
import type { ChatRequest } from './chat-model.ts';

let server: ProviderServer;
let client: Anthropic;
beforeAll(async () => {
  server = await startProviderServer();
  client = new Anthropic({ apiKey: 'test', baseURL: server.url });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const request = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  system: 'You summarize.',
  prompt: 'Summarize: the cat sat on the mat.',
  maxOutputTokens: 300,
  json: false,
  signal: AbortSignal.timeout(5_000),
  ...over,
});

describe('anthropicChatModel', () => {
  it('sends model, system, one user message and max_tokens; maps the reply', async () => {
    server.respondWith((r) => `summary: ${r.prompt.slice(11)}`);
    const model = anthropicChatModel(client, { model: 'claude-haiku-4-5' });
    const response = await model.generate(request());
    expect(model.id).toBe('anthropic:claude-haiku-4-5');
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(server.requests[0]?.headers['anthropic-version']).toMatch(/^\d{4}-/);
    expect(server.requests[0]?.body).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 300,
      system: 'You summarize.',
      messages: [{ role: 'user', content: 'Summarize: the cat sat on the mat.' }],
    });
    expect(response).toEqual({
      text: 'summary: the cat sat on the mat.',
      usage: { inputTokens: expect.any(Number), outputTokens: 8 },
      finishReason: 'stop',
    });
  });

  it('adds the JSON rule; with jsonPrefill sends `{` and re-adds it to the text', async () => {
    server.respondWith(() => '{"summary":"cat"}');
    const plain = await anthropicChatModel(client, { model: 'c' }).generate(
      request({ json: true }),
    );
    expect(plain.text).toBe('{"summary":"cat"}');
    expect(server.requests[0]?.body?.system).toMatch(/^You summarize\.\n\n.*JSON object/);
    expect(server.requests[0]?.body?.messages).toHaveLength(1);

    const prefilled = anthropicChatModel(client, { model: 'c', jsonPrefill: true });
    const response = await prefilled.generate(request({ json: true }));
    expect(server.requests[1]?.body?.messages).toEqual([
      { role: 'user', content: 'Summarize: the cat sat on the mat.' },
      { role: 'assistant', content: '{' },
    ]);
    expect(JSON.parse(response.text)).toEqual({ summary: 'cat' });
  });

  it('maps stop_reason max_tokens to length', async () => {
    server.plan({ truncated: true, text: 'the cat sat' });
    const response = await anthropicChatModel(client, { model: 'c' }).generate(request());
    expect(response).toMatchObject({ text: 'the cat sat', finishReason: 'length' });
  });

  it.each([
    [400, 'invalid-request', false],
    [401, 'auth', false],
    [429, 'rate-limited', true],
    [500, 'server', true],
    [503, 'overloaded', true],
    [529, 'overloaded', true],
  ] as const)(
    'maps HTTP %i to ProviderError %s (retryable %s)',
    async (status, kind, retryable) => {
      server.plan({ status, headers: { 'retry-after': '3' } });
      const error = await providerFailure(
        anthropicChatModel(client, { model: 'c' }).generate(request()),
      );
      expect(error).toMatchObject({
        status,
        kind,
        retryable,
        provider: 'anthropic',
        retryAfterMs: 3000,
      });
      expect(error.cause).toBeInstanceOf(Anthropic.APIError);
      expect(server.requests).toHaveLength(1);
    },
  );

  it('reads an HTTP-date retry-after', async () => {
    const at = new Date(Date.now() + 5_000).toUTCString();
    server.plan({ status: 429, headers: { 'retry-after': at } });
    const error = await providerFailure(
      anthropicChatModel(client, { model: 'c' }).generate(request()),
    );
    expect(error.retryAfterMs).toBeGreaterThan(3_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(5_000);
  });

  it('maps malformed JSON to malformed-response and a hang + timeout to aborted', async () => {
    const model = anthropicChatModel(client, { model: 'c' });
    server.plan({ malformedJson: true });
    expect(await providerFailure(model.generate(request()))).toMatchObject({
      kind: 'malformed-response',
      retryable: true,
    });
    server.plan({ hang: true });
    const started = Date.now();
    const error = await providerFailure(
      model.generate(request({ signal: AbortSignal.timeout(150) })),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toMatchObject({ kind: 'aborted', retryable: false });
    expect(error.message).toMatch(/aborted/);
  });
});
