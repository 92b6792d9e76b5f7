import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ProviderServer, startProviderServer } from './__fixtures__/provider-server.ts';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe('provider-server fixture', () => {
  it('answers OpenAI chat completions in the real wire format', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    server.respondWith((r) => `echo: ${r.prompt}`);
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hello' },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe('echo: hello');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test');
  });

  it('decodes base64 embeddings with the openai SDK default', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const result = await client.embeddings.create({ model: 'e', input: ['a', 'b'], dimensions: 4 });
    expect(server.requests[0]?.body?.encoding_format).toBe('base64');
    expect(result.data.map((d) => d.embedding.length)).toEqual([4, 4]);
  });

  it('answers Anthropic messages and continues a prefill', async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    server.respondWith(() => '{"a":1}');
    const message = await client.messages.create({
      model: 'claude-x',
      max_tokens: 10,
      system: 'sys',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '{' },
      ],
    });
    expect(message.content[0]).toEqual({ type: 'text', text: '"a":1}' });
    expect(message.stop_reason).toBe('end_turn');
  });

  it('sends real error bodies with planned statuses', async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    server.plan({ status: 529 });
    const error = await client.messages
      .create({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: 'error',
      error: { type: 'overloaded_error' },
    });
  });
});
