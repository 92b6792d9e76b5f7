import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import { type FactExtractorInput, MemError, type StoredMessage, type UserFact } from '@mem/core';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ProviderServer, startProviderServer } from '../__fixtures__/provider-server.ts';
import { type ProviderApi, readProviderRequest } from '../__fixtures__/provider-wire.ts';
import { aiSdkChatModel } from '../ai-sdk-chat-model.ts';
import { anthropicChatModel } from '../anthropic-chat-model.ts';
import type { ChatModel } from '../chat-model.ts';
import { openAIChatModel } from '../openai-chat-model.ts';
import { withRetries } from '../with-retries.ts';
import { createLlmFactExtractor } from './llm-fact-extractor.ts';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  server.respondWith(() => GOOD_REPLY);
});

const NOW = Date.UTC(2026, 10, 28, 9, 30);
let seq = 0;
const message = (
  id: string,
  role: StoredMessage['role'],
  content: string,
  over: Partial<StoredMessage> = {},
): StoredMessage => ({
  id,
  role,
  content,
  createdAt: NOW,
  seq: ++seq,
  tokenCount: 10,
  ...over,
});

const FACTS: UserFact[] = [
  {
    id: 'f1',
    text: 'Lives in Porto.',
    about: 'location',
    sourceMessageIds: ['old-1'],
    createdAt: 1,
    updatedAt: 1,
  },
  { id: 'f2', text: 'Has a cat named Miso.', sourceMessageIds: [], createdAt: 2, updatedAt: 2 },
];

const EXCHANGE: StoredMessage[] = [
  message(
    'm-1',
    'user',
    'Hi! I moved from Porto to Lisbon last month. I am vegetarian: any place near Alfama?',
  ),
  message('m-2', 'assistant', '', {
    toolCalls: [
      {
        id: 'call-1',
        name: 'search_restaurants',
        arguments: '{"area":"Alfama","diet":"vegetarian"}',
      },
    ],
  }),
  message('m-3', 'tool', '[{"name":"Ao 26","rating":4.7}]', {
    toolCallId: 'call-1',
    toolName: 'search_restaurants',
  }),
  message('m-4', 'assistant', 'Try Ao 26, a vegan place five minutes from Alfama.'),
];

const input = (over: Partial<FactExtractorInput> = {}): FactExtractorInput => ({
  userId: 'ana',
  sessionId: 's-2',
  messages: EXCHANGE,
  facts: FACTS,
  now: NOW,
  ...over,
});

const GOOD_REPLY = JSON.stringify({
  operations: [
    {
      op: 'update',
      id: 'f1',
      text: 'Lives in Lisbon since October 2026.',
      about: 'location',
      source: [1],
    },
    { op: 'add', text: 'Is vegetarian.', about: 'diet', source: [1] },
  ],
});
const GOOD_OPERATIONS = [
  {
    op: 'update',
    id: 'f1',
    text: 'Lives in Lisbon since October 2026.',
    about: 'location',
    sourceMessageIds: ['m-1'],
  },
  { op: 'add', text: 'Is vegetarian.', about: 'diet', sourceMessageIds: ['m-1'] },
];

const options = (signal = AbortSignal.timeout(10_000)) => ({ signal });

/** The system prompt and user prompt of the `i`-th request the server received. */
function sent(i: number): { system: string; prompt: string; body: Record<string, unknown> } {
  const request = server.requests[i];
  if (request?.body === undefined) throw new Error(`no request ${i}`);
  const api: ProviderApi = request.path === '/v1/messages' ? 'anthropic-messages' : 'openai-chat';
  const { system, prompt } = readProviderRequest(api, request.body);
  return { system, prompt, body: request.body };
}

const providers: { name: string; id: string; model: () => ChatModel }[] = [
  {
    name: 'the OpenAI SDK',
    id: 'openai:gpt-4o-mini',
    model: () =>
      openAIChatModel(new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 }), {
        model: 'gpt-4o-mini',
      }),
  },
  {
    name: 'the Anthropic SDK',
    id: 'anthropic:claude-haiku-4-5',
    model: () =>
      anthropicChatModel(new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 }), {
        model: 'claude-haiku-4-5',
      }),
  },
  {
    name: 'the AI SDK with @ai-sdk/openai',
    id: 'ai-sdk:openai.chat:gpt-4o-mini',
    model: () =>
      aiSdkChatModel(
        createOpenAI({ apiKey: 'test', baseURL: `${server.url}/v1` }).chat('gpt-4o-mini'),
      ),
  },
  {
    name: 'the AI SDK with @ai-sdk/anthropic',
    id: 'ai-sdk:anthropic.messages:claude-haiku-4-5',
    model: () =>
      aiSdkChatModel(
        createAnthropic({ apiKey: 'test', baseURL: `${server.url}/v1` })('claude-haiku-4-5'),
      ),
  },
];

describe.each(providers)('createLlmFactExtractor on $name', ({ id, model }) => {
  it('turns one reply into FactOperations with their source message ids, in one call', async () => {
    const usage: unknown[] = [];
    const extractor = createLlmFactExtractor({ model: model(), onUsage: (u) => usage.push(u) });
    expect(extractor).toMatchObject({ specificationVersion: 'mem.fact-extractor.v1', id });
    await expect(extractor.extract(input(), options())).resolves.toEqual(GOOD_OPERATIONS);
    expect(server.requests).toHaveLength(1);
    expect(usage).toEqual([
      { inputTokens: expect.any(Number), outputTokens: expect.any(Number), model: id },
    ]);
    expect((usage[0] as { outputTokens: number }).outputTokens).toBeGreaterThan(0);
  });

  it("sends the user's facts with id and about, and the exchange numbered, tool calls in brief", async () => {
    await createLlmFactExtractor({ model: model() }).extract(input(), options());
    const { system, prompt } = sent(0);
    expect(system).toContain('durable facts about one person: the USER');
    expect(system).toContain('At most 5 operations');
    expect(system).toMatch(/JSON/);
    expect(prompt).toContain('Today is 2026-11-28.');
    expect(prompt).toContain('{"id":"f1","about":"location","text":"Lives in Porto."}');
    expect(prompt).toContain('{"id":"f2","text":"Has a cat named Miso."}');
    expect(prompt).toContain(
      '[1] user: Hi! I moved from Porto to Lisbon last month. I am vegetarian: any place near Alfama?',
    );
    expect(prompt).toContain(
      '[2] assistant: (calls tool search_restaurants {"area":"Alfama","diet":"vegetarian"})',
    );
    expect(prompt).toContain('[3] tool search_restaurants result: [{"name":"Ao 26","rating":4.7}]');
    expect(prompt).toContain('[4] assistant: Try Ao 26, a vegan place five minutes from Alfama.');
  });

  it('asks once more, saying what was wrong, when the first reply is malformed', async () => {
    server.plan({ text: 'The user moved to Lisbon and is vegetarian.' });
    const extractor = createLlmFactExtractor({ model: model() });
    await expect(extractor.extract(input(), options())).resolves.toEqual(GOOD_OPERATIONS);
    expect(server.requests).toHaveLength(2);
    expect(sent(0).prompt).not.toContain('previous reply');
    expect(sent(1).prompt).toContain('Your previous reply could not be used: no JSON object');
    expect(sent(1).prompt).toContain('[1] user: Hi! I moved from Porto');
  });

  it('throws a MemSummarizerError naming the extractor after two malformed replies', async () => {
    server.respondWith(() => '{"operations": [{"op": "add", "text": "Is veg');
    const extractor = createLlmFactExtractor({ model: model() });
    const error = await extractor.extract(input(), options()).catch((e: unknown) => e);
    expect(MemError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'MEM_SUMMARIZER' });
    expect((error as Error).message).toContain(`fact extractor ${id}`);
    expect((error as Error).message).toMatch(/malformed after 2 attempts \(invalid JSON/);
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(server.requests).toHaveLength(2);
  });

  it('drops an operation on a fact id the user does not have and one whose text is error text', async () => {
    server.respondWith(() =>
      JSON.stringify({
        operations: [
          { op: 'update', id: 'f7', text: 'Lives in Lisbon.' },
          { op: 'delete', id: 'Lives in Porto.' },
          { op: 'add', text: 'Error: 429 Too Many Requests' },
          { op: 'add', text: 'Is vegetarian.', source: [1] },
        ],
      }),
    );
    const dropped: string[] = [];
    const extractor = createLlmFactExtractor({
      model: model(),
      onDrop: (op, reason) => dropped.push(`${op.op}:${reason}`),
    });
    await expect(extractor.extract(input(), options())).resolves.toEqual([
      { op: 'add', text: 'Is vegetarian.', sourceMessageIds: ['m-1'] },
    ]);
    expect(dropped).toEqual(['update:unknown-id', 'delete:unknown-id', 'add:unusable-text']);
    expect(server.requests).toHaveLength(1);
  });

  it('waits out a 429 with Retry-After and asks again when the model has withRetries', async () => {
    server.plan({ status: 429, headers: { 'retry-after': '1' } });
    const waits: number[] = [];
    const extractor = createLlmFactExtractor({
      model: withRetries(model(), { onRetry: (e) => waits.push(e.delayMs) }),
    });
    const started = Date.now();
    await expect(extractor.extract(input(), options())).resolves.toEqual(GOOD_OPERATIONS);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
    expect(server.requests).toHaveLength(2);
  });

  it('stops a hanging call as soon as its signal aborts', async () => {
    server.plan({ hang: true });
    const controller = new AbortController();
    const extractor = createLlmFactExtractor({ model: withRetries(model()) });
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('engine shutdown')), 100);
    const error = await extractor
      .extract(input(), options(controller.signal))
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(error).toMatchObject({ code: 'MEM_SUMMARIZER', kind: 'aborted' });
    expect(server.requests).toHaveLength(1);
  });

  it("asks to keep the user's language when the conversation is not in English", async () => {
    server.respondWith(() =>
      JSON.stringify({
        operations: [{ op: 'add', text: 'Wohnt in Lissabon.', about: 'location', source: [1] }],
      }),
    );
    const german = [
      message('g-1', 'user', 'Ich wohne seit letztem Monat in Lissabon und arbeite als Ärztin.'),
      message('g-2', 'assistant', 'Schön! Wie gefällt dir die Stadt?'),
    ];
    const extractor = createLlmFactExtractor({ model: model() });
    await expect(
      extractor.extract(input({ messages: german, facts: [] }), options()),
    ).resolves.toEqual([
      { op: 'add', text: 'Wohnt in Lissabon.', about: 'location', sourceMessageIds: ['g-1'] },
    ]);
    const { system, prompt } = sent(0);
    expect(system).toContain(
      "Keep the user's language: write each fact in the language the user writes in; never translate it into English.",
    );
    expect(prompt).toContain('(none yet)');
    expect(prompt).toContain(
      '[1] user: Ich wohne seit letztem Monat in Lissabon und arbeite als Ärztin.',
    );
  });
});

describe('createLlmFactExtractor', () => {
  it('asks OpenAI for a JSON object reply', async () => {
    await createLlmFactExtractor({ model: providers[0]!.model() }).extract(input(), options());
    expect(sent(0).body).toMatchObject({
      response_format: { type: 'json_object' },
      temperature: 0,
    });
  });

  it('makes no call when the interaction has no user text (an assistant greeting)', async () => {
    const extractor = createLlmFactExtractor({ model: providers[0]!.model() });
    const greeting = [message('a-1', 'assistant', 'Hello! How can I help today?')];
    await expect(extractor.extract(input({ messages: greeting }), options())).resolves.toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('caps the operations at maxOperations, in the prompt and in the result', async () => {
    server.respondWith(() =>
      JSON.stringify({
        operations: [
          { op: 'add', text: 'Is vegetarian.' },
          { op: 'add', text: 'Lives in Lisbon.' },
        ],
      }),
    );
    const extractor = createLlmFactExtractor({ model: providers[0]!.model(), maxOperations: 1 });
    await expect(extractor.extract(input(), options())).resolves.toEqual([
      { op: 'add', text: 'Is vegetarian.' },
    ]);
    expect(sent(0).system).toContain('At most 1 operations');
    expect(sent(0).prompt).toContain('at most 1 operations');
  });

  it('wraps a raw failure of a hand-written ChatModel in a MemSummarizerError with its cause', async () => {
    const broken: ChatModel = {
      id: 'mine',
      generate: () => Promise.reject(new TypeError('boom')),
    };
    const error = await createLlmFactExtractor({ model: broken })
      .extract(input(), options())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MEM_SUMMARIZER', cause: new TypeError('boom') });
    expect((error as Error).message).toContain('fact extractor mine: the model call failed: boom');
  });

  it('refuses bad options with one MemConfigError listing each', () => {
    expect(() =>
      createLlmFactExtractor({ model: {} as ChatModel, maxOperations: 0, retryMalformed: -1 }),
    ).toThrow(
      expect.objectContaining({
        code: 'MEM_CONFIG',
        issues: [
          expect.objectContaining({ path: 'model' }),
          expect.objectContaining({ path: 'maxOperations' }),
          expect.objectContaining({ path: 'retryMalformed' }),
        ],
      }),
    );
  });

  it('refuses a call without messages or signal with a MemValidationError naming the field', async () => {
    const extractor = createLlmFactExtractor({ model: providers[0]!.model() });
    await expect(
      extractor.extract(input({ messages: undefined as never }), options()),
    ).rejects.toMatchObject({ code: 'MEM_VALIDATION', field: 'input.messages' });
    await expect(extractor.extract(input(), {} as never)).rejects.toMatchObject({
      code: 'MEM_VALIDATION',
      field: 'options.signal',
    });
    expect(server.requests).toHaveLength(0);
  });
});
