import { MemConfigError } from '@mem/core';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerFailure } from './__fixtures__/provider-failure.ts';
import { type ProviderServer, startProviderServer } from './__fixtures__/provider-server.ts';
import type { ChatModel, ChatRequest } from './chat-model.ts';
import { openAIChatModel } from './openai-chat-model.ts';
import { openAIEmbedder } from './openai-embedder.ts';
import type { RetryEvent, RetryOptions } from './retrying.ts';
import { embedderWithRetries, withRetries } from './with-retries.ts';

let server: ProviderServer;
let chat: ChatModel;
let client: OpenAI;
beforeAll(async () => {
  server = await startProviderServer();
  client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1` });
  chat = openAIChatModel(client, { model: 'gpt-4o-mini' });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const request = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  system: 'sys',
  prompt: 'hello',
  maxOutputTokens: 50,
  json: false,
  signal: AbortSignal.timeout(10_000),
  ...over,
});

/** Small backoff so failure storms finish fast; events recorded for assertions. */
function fast(over: RetryOptions = {}): { options: RetryOptions; events: RetryEvent[] } {
  const events: RetryEvent[] = [];
  return {
    events,
    options: { baseDelayMs: 5, maxDelayMs: 20, onRetry: (e) => events.push(e), ...over },
  };
}

describe('withRetries', () => {
  it('waits out a 429 with retry-after: 1, then succeeds on the second request', async () => {
    server.plan({ status: 429, headers: { 'retry-after': '1' } });
    const { options, events } = fast();
    const started = Date.now();
    const response = await withRetries(chat, options).generate(request());
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(response.text).toBe('hello');
    expect(server.requests).toHaveLength(2);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ attempt: 1, error: { status: 429, retryAfterMs: 1000 } });
    expect(events[0]?.delayMs).toBeGreaterThanOrEqual(1000);
  });

  it('gives up on a 500 storm after exactly maxRetries + 1 requests, with backoff in bounds', async () => {
    for (let i = 0; i < 10; i++) server.plan({ status: 500 });
    const { options, events } = fast({ maxRetries: 3, baseDelayMs: 10, factor: 2, maxDelayMs: 25 });
    const error = await providerFailure(withRetries(chat, options).generate(request()));
    expect(error).toMatchObject({ status: 500, kind: 'server' });
    expect(server.requests).toHaveLength(4);
    expect(events.map((e) => e.attempt)).toEqual([1, 2, 3]);
    const ceilings = [10, 20, 25];
    events.forEach((e, i) => {
      expect(e.delayMs).toBeGreaterThanOrEqual(0);
      expect(e.delayMs).toBeLessThan(ceilings[i]!);
    });
  });

  it('does not retry a 400', async () => {
    server.plan({ status: 400 });
    const { options, events } = fast();
    const error = await providerFailure(withRetries(chat, options).generate(request()));
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect(server.requests).toHaveLength(1);
    expect(events).toHaveLength(0);
  });

  it('retries a malformed 200 body', async () => {
    server.plan({ malformedJson: true });
    const response = await withRetries(chat, fast().options).generate(request());
    expect(response.text).toBe('hello');
    expect(server.requests).toHaveLength(2);
  });

  it('rejects promptly with an abort when a hung request hits AbortSignal.timeout', async () => {
    server.plan({ hang: true });
    const started = Date.now();
    const error = await providerFailure(
      withRetries(chat, fast().options).generate(request({ signal: AbortSignal.timeout(200) })),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toMatchObject({ kind: 'aborted', retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('rejects at once with the abort reason when aborted during a backoff wait', async () => {
    server.plan({ status: 503, headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const started = Date.now();
    const pending = withRetries(chat, {
      onRetry: () => setTimeout(() => controller.abort(reason), 50),
    }).generate(request({ signal: controller.signal }));
    await expect(pending).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up at once when retry-after exceeds maxRetryAfterMs', async () => {
    server.plan({ status: 429, headers: { 'retry-after': '120' } });
    const { options, events } = fast();
    const error = await providerFailure(withRetries(chat, options).generate(request()));
    expect(error.retryAfterMs).toBe(120_000);
    expect(events).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });

  it('passes other errors through untouched and keeps the model id', async () => {
    const bug = new TypeError('not a provider error');
    const broken: ChatModel = { id: 'x:y', generate: () => Promise.reject(bug) };
    const wrapped = withRetries(broken, fast().options);
    expect(wrapped.id).toBe('x:y');
    await expect(wrapped.generate(request())).rejects.toBe(bug);
  });

  it('rejects bad options with one MemConfigError listing each', () => {
    let error: unknown;
    try {
      withRetries(chat, { maxRetries: -1, factor: 0.5 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MemConfigError);
    expect((error as MemConfigError).issues.map((i) => i.path).sort()).toEqual([
      'factor',
      'maxRetries',
    ]);
  });
});

describe('embedderWithRetries', () => {
  it('retries a rate-limited embed call and keeps the embedder description', async () => {
    const embedder = openAIEmbedder(client, { model: 'e5', dimensions: 8 });
    const retrying = embedderWithRetries(embedder, fast().options);
    expect(retrying).toMatchObject({ id: embedder.id, dimensions: 8, maxBatchSize: 256 });
    server.plan({ status: 429, headers: { 'retry-after-ms': '30' } });
    const result = await retrying.embed(['a', 'b'], { purpose: 'document' });
    expect(result.embeddings).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });
});
