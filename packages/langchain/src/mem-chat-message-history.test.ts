import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AIMessage,
  type AIMessageFields,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { createMemoryEngine, MemValidationError, type Store } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { langChainFields } from './convert/__fixtures__/langchain-arbitraries.ts';
import { MemChatMessageHistory } from './mem-chat-message-history.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-langchain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const windowProfile = (maxTokens: number) => ({
  short_term_memory_strategy: [
    { memory_strategy_id: 'max_tokens', memory_max_tokens: maxTokens, conditions: [] },
  ],
});

/** One "run" of an app: its own store on the SQLite file, its own engine. */
function openRun(file: string, profile: unknown = {}) {
  const store = createSqliteStore({ path: join(dir, file) });
  const engine = createMemoryEngine({ profile, store });
  const history = (sessionId: string) => new MemChatMessageHistory({ engine, sessionId });
  return { store, engine, history, close: () => (store as Store & { close(): void }).close() };
}

/** A chat chain with history, and what its model was sent on each call. */
function chatChain(history: (sessionId: string) => MemChatMessageHistory, replies: string[]) {
  const seen: BaseMessage[][] = [];
  const model = new FakeListChatModel({ responses: replies });
  const prompt = ChatPromptTemplate.fromMessages([
    ['system', 'You are a helpful assistant.'],
    new MessagesPlaceholder('history'),
    ['human', '{input}'],
  ]);
  const chain = new RunnableWithMessageHistory({
    runnable: prompt.pipe(model),
    getMessageHistory: history,
    inputMessagesKey: 'input',
    historyMessagesKey: 'history',
  });
  const invoke = (input: string, sessionId: string) =>
    chain.invoke(
      { input },
      {
        configurable: { sessionId },
        callbacks: [
          { handleChatModelStart: (_llm, messages) => void seen.push(messages[0] ?? []) },
        ],
      },
    );
  return { invoke, seen };
}

describe('MemChatMessageHistory', () => {
  it('keeps a RunnableWithMessageHistory conversation across two runs on a SQLite file', async () => {
    const first = openRun('runs.db');
    const one = chatChain(first.history, ['Nice to meet you, Ada.']);
    expect((await one.invoke('Hi, I am Ada and I live in Porto.', 'ada')).content).toBe(
      'Nice to meet you, Ada.',
    );
    first.close();

    const second = openRun('runs.db');
    const two = chatChain(second.history, ['You are Ada, from Porto.']);
    await two.invoke('Who am I?', 'ada');
    expect(two.seen[0]?.map((m) => [m.type, m.text])).toEqual([
      ['system', 'You are a helpful assistant.'],
      ['human', 'Hi, I am Ada and I live in Porto.'],
      ['ai', 'Nice to meet you, Ada.'],
      ['human', 'Who am I?'],
    ]);
    expect((await second.history('ada').getMessages()).map((m) => m.text)).toEqual([
      'Hi, I am Ada and I live in Porto.',
      'Nice to meet you, Ada.',
      'Who am I?',
      'You are Ada, from Porto.',
    ]);
    expect(await second.history('someone-else').getMessages()).toEqual([]);
    second.close();
  });

  it('gives back a tool call and its ToolMessage exactly, from another run', async () => {
    const messages = [
      new HumanMessage({ content: 'Weather in Lisbon?', id: 'h1' }),
      new AIMessage({
        id: 'run-1',
        content: [{ type: 'text', text: 'Let me check.' }],
        tool_calls: [
          {
            type: 'tool_call',
            id: 'call_1',
            name: 'get_weather',
            args: { city: 'Lisbon', days: 2 },
          },
        ],
        invalid_tool_calls: [
          {
            type: 'invalid_tool_call',
            id: 'call_2',
            name: 'get_time',
            args: '{"tz":',
            error: 'bad JSON',
          },
        ],
        usage_metadata: { input_tokens: 31, output_tokens: 12, total_tokens: 43 },
        response_metadata: { model_name: 'gpt-4o-mini', finish_reason: 'tool_calls' },
        additional_kwargs: { refusal: null },
      } as unknown as AIMessageFields),
      new ToolMessage({
        content: 'upstream timeout',
        tool_call_id: 'call_1',
        name: 'get_weather',
        status: 'error',
        artifact: { retries: 3 },
      }),
      new AIMessage('The weather service is down; try again later.'),
    ];
    const first = openRun('tools.db');
    await first.history('t').addMessages(messages);
    first.close();

    const second = openRun('tools.db');
    const history = second.history('t');
    expect((await history.getHistory()).map(langChainFields)).toEqual(
      messages.map(langChainFields),
    );
    expect((await history.getMessages()).map(langChainFields)).toEqual(
      messages.map(langChainFields),
    );
    const stored = await history.session.history();
    expect(stored[2]).toMatchObject({
      role: 'tool',
      toolCallId: 'call_1',
      toolName: 'get_weather',
      isError: true,
    });
    second.close();
  });

  it("returns mem's window: the newest whole turns within the profile's budget", async () => {
    const run = openRun('window.db', windowProfile(120));
    const history = run.history('w');
    await history.addMessage(new SystemMessage('Answer briefly.'));
    for (let turn = 0; turn < 12; turn++) {
      await history.addMessages([
        new HumanMessage(`Question ${turn}: what is the forecast for city number ${turn}?`),
        new AIMessage({
          content: '',
          tool_calls: [{ id: `c${turn}`, name: 'forecast', args: { city: turn } }],
        }),
        new ToolMessage({
          content: `Sunny, ${20 + turn} degrees.`,
          tool_call_id: `c${turn}`,
          name: 'forecast',
        }),
        new AIMessage(`City ${turn} will be sunny.`),
      ]);
    }
    const context = await history.getMessages();
    const counted = await history.session.context();
    expect(counted.tokenCount).toBeLessThanOrEqual(120);
    expect(context.length).toBeLessThan(49);
    expect(context[0]?.text).toBe('Answer briefly.');
    expect(context[1]?.type).toBe('human');
    expect(context.at(-1)?.text).toBe('City 11 will be sunny.');
    const calls = context.flatMap((m) =>
      (m instanceof AIMessage ? (m.tool_calls ?? []) : []).map((c) => c.id),
    );
    const results = context.flatMap((m) => (m instanceof ToolMessage ? [m.tool_call_id] : []));
    expect(results).toEqual(calls);
    expect((await history.getHistory()).length).toBe(49);
    run.close();
  });

  it('hands the model the summary of older turns once the summarizer has run', async () => {
    const run = openRun('summary.db', {
      ...windowProfile(4000),
      long_term_memory_strategy: [
        { long_term_memory_id: 'summarizer', interaction_threshold_qty: 4, interaction_keep: 1 },
      ],
    });
    const history = run.history('s');
    for (let turn = 0; turn < 5; turn++) {
      await history.addMessages([
        new HumanMessage(`Order AF-${1000 + turn} arrived broken, what now?`),
        new AIMessage(`I opened ticket T-${turn} for order AF-${1000 + turn}.`),
      ]);
    }
    await history.session.idle();
    const context = await history.getMessages();
    expect(context[0]).toBeInstanceOf(SystemMessage);
    expect(context[0]?.text).toContain('AF-1000');
    expect(context.slice(1).map((m) => m.text)).toEqual([
      'Order AF-1004 arrived broken, what now?',
      'I opened ticket T-4 for order AF-1004.',
    ]);
    expect(await history.getHistory()).toHaveLength(10);
    run.close();
  });

  it('clear() empties the session for every later run', async () => {
    const first = openRun('clear.db');
    await first.history('c').addUserMessage('remember me');
    await first.history('c').addAIMessage('I will.');
    expect(await first.history('c').getMessages()).toHaveLength(2);
    await first.history('c').clear();
    first.close();
    const second = openRun('clear.db');
    expect(await second.history('c').getMessages()).toEqual([]);
    second.close();
  });

  it('refuses a missing engine or a bad session id with a MemValidationError', () => {
    const { engine } = { engine: createMemoryEngine({ profile: {} }) };
    expect(() => new MemChatMessageHistory({ sessionId: 's' } as never)).toThrow(
      expect.objectContaining({ field: 'engine' }),
    );
    expect(() => new MemChatMessageHistory({ engine, sessionId: 3 } as never)).toThrow(
      MemValidationError,
    );
    expect(() => new MemChatMessageHistory({ engine, sessionId: '' })).toThrow(MemValidationError);
  });
});
