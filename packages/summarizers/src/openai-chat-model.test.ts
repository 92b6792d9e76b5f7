import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerFailure } from './__fixtures__/provider-failure.ts';
import { type ProviderServer, startProviderServer } from './__fixtures__/provider-server.ts';
import type { ChatRequest } from './chat-model.ts';
import { openAIChatModel } from './openai-chat-model.ts';

let server: ProviderServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startProviderServer();
  client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1` });
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

describe('openAIChatModel', () => {
  it('sends model, system and user messages, max_tokens and temperature 0', async () => {
    server.respondWith((r) => `summary of ${r.prompt.length} chars`);
    const model = openAIChatModel(client, { model: 'gpt-4o-mini' });
    const response = await model.generate(request());
    expect(model.id).toBe('openai:gpt-4o-mini');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
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
    expect(response.usage.inputTokens).toBeGreaterThan(0);
  });

  it('uses max_completion_tokens towards api.openai.com, or when asked', async () => {
    const model = openAIChatModel(client, {
      model: 'gpt-5-mini',
      maxTokensParameter: 'max_completion_tokens',
      omitTemperature: true,
    });
    await model.generate(request({ temperature: 0.7 }));
    const body = server.requests[0]?.body;
    expect(body).toMatchObject({ max_completion_tokens: 200 });
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('temperature');
  });

  it('asks for a JSON object and adds the JSON rule when the prompts do not mention JSON', async () => {
    server.respondWith(() => '{"summary":"cat on mat"}');
    const model = openAIChatModel(client, { model: 'gpt-4o-mini' });
    const response = await model.generate(request({ json: true }));
    expect(JSON.parse(response.text)).toEqual({ summary: 'cat on mat' });
    const body = server.requests[0]?.body as { messages: { content: string }[] };
    expect(body).toMatchObject({ response_format: { type: 'json_object' } });
    expect(body.messages[0]?.content).toMatch(/JSON object/);

    await model.generate(request({ json: true, system: 'Answer in JSON.' }));
    const second = server.requests[1]?.body as { messages: { content: string }[] };
    expect(second.messages[0]?.content).toBe('Answer in JSON.');
  });

  it('maps finish_reason length to a truncated reply', async () => {
    server.plan({ truncated: true, text: '{"summary": "the cat' });
    const response = await openAIChatModel(client, { model: 'm' }).generate(request());
    expect(response).toMatchObject({ text: '{"summary": "the cat', finishReason: 'length' });
  });

  it.each([
    [400, 'invalid-request', false],
    [401, 'auth', false],
    [404, 'invalid-request', false],
    [408, 'timeout', true],
    [409, 'conflict', true],
    [429, 'rate-limited', true],
    [500, 'server', true],
    [503, 'overloaded', true],
  ] as const)(
    'maps HTTP %i to ProviderError %s (retryable %s)',
    async (status, kind, retryable) => {
      server.plan({ status, errorMessage: `boom ${status}` });
      const error = await providerFailure(
        openAIChatModel(client, { model: 'm' }).generate(request()),
      );
      expect(error).toMatchObject({
        status,
        kind,
        retryable,
        provider: 'openai',
        code: 'MEM_SUMMARIZER',
      });
      expect(error.message).toMatch(/^\[mem\/summarizers\] openai request failed/);
      expect(error.message).toContain(`boom ${status}`);
      expect(error.cause).toBeInstanceOf(OpenAI.APIError);
      expect(server.requests).toHaveLength(1); // no SDK retries
    },
  );

  it('reads retry-after-ms, then retry-after seconds', async () => {
    const model = openAIChatModel(client, { model: 'm' });
    server.plan({ status: 429, headers: { 'retry-after-ms': '250', 'retry-after': '9' } });
    expect((await providerFailure(model.generate(request()))).retryAfterMs).toBe(250);
    server.plan({ status: 429, headers: { 'retry-after': '2' } });
    expect((await providerFailure(model.generate(request()))).retryAfterMs).toBe(2000);
    server.plan({ status: 500 });
    expect((await providerFailure(model.generate(request()))).retryAfterMs).toBeUndefined();
  });

  it('maps a truncated JSON body with 200 to a retryable malformed-response', async () => {
    server.plan({ malformedJson: true });
    const error = await providerFailure(
      openAIChatModel(client, { model: 'm' }).generate(request()),
    );
    expect(error).toMatchObject({ kind: 'malformed-response', retryable: true, status: undefined });
  });

  it('maps a refused connection to a retryable network error', async () => {
    const dead = new OpenAI({ apiKey: 'test', baseURL: 'http://127.0.0.1:1/v1' });
    const error = await providerFailure(openAIChatModel(dead, { model: 'm' }).generate(request()));
    expect(error).toMatchObject({ kind: 'network', retryable: true });
  });

  it('rejects promptly with a non-retryable abort when the signal fires on a hung request', async () => {
    server.plan({ hang: true });
    const started = Date.now();
    const error = await providerFailure(
      openAIChatModel(client, { model: 'm' }).generate(
        request({ signal: AbortSignal.timeout(150) }),
      ),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toMatchObject({ kind: 'aborted', retryable: false });
  });

  it('rejects bad options with a MemConfigError', () => {
    expect(() => openAIChatModel(client, { model: '' })).toThrow(/model/);
  });
});
