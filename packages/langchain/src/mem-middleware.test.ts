import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  type ToolMessage,
} from '@langchain/core/messages';
import { createMemoryEngine, MemError, MemValidationError, messageText } from '@mem/core';
import { promptProblems } from '@mem/core/strategies';
import { createAgent } from 'langchain';
import { afterAll, describe, expect, it } from 'vitest';
import { openAgent } from './__fixtures__/agent-run.ts';
import { AnsweringChatModel } from './__fixtures__/answering-chat-model.ts';
import { storeKinds } from './__fixtures__/store-kinds.ts';
import { fromLangChainMessages } from './convert/from-langchain.ts';
import { memMiddleware } from './mem-middleware.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-langchain-middleware-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const dbFile = () => join(dir, `agent-${files++}.db`);

const window = (tokens: number) => ({
  short_term_memory_strategy: [
    { memory_strategy_id: 'max_tokens', memory_max_tokens: tokens, conditions: [] },
  ],
});

const stores = storeKinds('middleware');

describe.each(stores)('memMiddleware on createAgent, on the %s', (_, openStore) => {
  it('keeps a thread across two agents on one SQLite file: the second call sees the first turn', async () => {
    const path = dbFile();
    const first = openAgent(path, window(2000));
    const one = await first.ask('My order AF-1042 arrived broken.', 'thread-1');
    expect(one.messages.at(-1)?.text).toBe('Answer to: My order AF-1042 arrived broken.');
    first.close();

    const second = openAgent(path, window(2000)); // a new process: new store, engine and agent
    const two = await second.ask('Which order was it?', 'thread-1');
    expect(two.messages.map((m) => m.type)).toEqual(['human', 'ai']); // no checkpointer
    const seen = second.model.inputs[0] ?? [];
    expect(seen.map((m) => [m.type, m.text])).toEqual([
      ['human', 'My order AF-1042 arrived broken.'],
      ['ai', 'Answer to: My order AF-1042 arrived broken.'],
      ['human', 'Which order was it?'],
    ]);
    const history = await second.history('thread-1');
    expect(history.map((m) => [m.role, messageText(m)])).toEqual([
      ['user', 'My order AF-1042 arrived broken.'],
      ['assistant', 'Answer to: My order AF-1042 arrived broken.'],
      ['user', 'Which order was it?'],
      ['assistant', 'Answer to: Which order was it?'],
    ]);
    expect(await second.history('thread-2')).toEqual([]);
    second.close();
  });

  it('stores a tool loop once: the call, its result and the answer', async () => {
    const run = openAgent(openStore(), window(2000));
    const out = await run.ask('Weather in Lisbon?', 'tools');
    expect(out.messages.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'ai']);
    // The second model call of the run saw its own call and result, not yet stored.
    expect(run.model.inputs[1]?.map((m) => m.type)).toEqual(['human', 'ai', 'tool']);
    await run.ask('Thanks!', 'tools');
    expect(run.model.inputs[2]?.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'ai', 'human']);
    expect((run.model.inputs[2]?.[2] as ToolMessage | undefined)?.tool_call_id).toBe('call_1');
    const history = await run.history('tools');
    expect(history.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(history[1]?.toolCalls?.map((c) => c.id)).toEqual(['call_1']);
    expect(history[2]?.toolCallId).toBe('call_1');
    run.close();
  });

  it("reports the model's usage to mem: the provider's input tokens fire input_tokens_threshold", async () => {
    const run = openAgent(openStore(), {
      ...window(2000),
      long_term_memory_strategy: [
        { long_term_memory_id: 'summarizer', input_tokens_threshold: 2500, interaction_keep: 1 },
      ],
    });
    await run.ask('Hello there.', 'usage');
    await run.engine.session('usage').idle();
    expect(await run.engine.session('usage').summaries()).toEqual([]); // 1,000 reported tokens
    await run.ask('How are you?', 'usage'); // the call sends 3 messages: 3,000 reported tokens
    await run.engine.session('usage').idle();
    expect(await run.engine.session('usage').summaries()).toHaveLength(1);
    run.close();
  });

  it("gives every model call mem's window: within the budget, a tool call never without its result", async () => {
    const run = openAgent(openStore(), window(160));
    for (let i = 0; i < 8; i++) {
      await run.ask(`Weather in City number ${i} of the long list of cities we care about?`, 'b');
    }
    const counter = run.engine.tokenCounter;
    for (const input of run.model.inputs) {
      const mem = fromLangChainMessages(input);
      const tokens = mem.reduce((s, m) => s + counter.countMessage(m), counter.replyPrimingTokens);
      expect(tokens).toBeLessThanOrEqual(160);
      expect(promptProblems(mem)).toEqual([]);
    }
    expect(run.model.inputs.at(-1)?.length).toBeLessThan(8);
    expect(await run.history('b')).toHaveLength(32); // every message stored, once
    run.close();
  });

  it('isolates five overlapping invokes on one thread: each answers its own question, stored in pairs', async () => {
    const run = openAgent(openStore(), window(4000), { delayMs: 5 });
    await run.ask('Hello', 'busy');
    const questions = ['one', 'two', 'three', 'four', 'five'].map((n) => `Question ${n}`);
    const results = await Promise.all(questions.map((q) => run.ask(q, 'busy')));
    results.forEach((r, i) => {
      expect(r.messages.at(-1)?.text).toBe(`Answer to: ${questions[i]}`);
    });
    for (const input of run.model.inputs.slice(1)) {
      const asked = input.filter((m) => m.type === 'human').map((m) => m.text);
      // Its own question last, never another run's unanswered one.
      expect(questions).toContain(asked.at(-1));
      for (const q of asked.slice(0, -1)) {
        const i = input.findIndex((m) => m.text === q);
        expect(input[i + 1]?.text).toBe(`Answer to: ${q}`);
      }
    }
    const history = await run.history('busy');
    expect(history).toHaveLength(12);
    for (let i = 0; i < history.length; i += 2) {
      expect(history[i]?.role).toBe('user');
      expect(messageText(history[i + 1]!)).toBe(`Answer to: ${messageText(history[i]!)}`);
    }
    expect(new Set(history.map((m) => messageText(m))).size).toBe(12);
    run.close();
  });

  it('stores nothing of a failed run, and the retried question once', async () => {
    const run = openAgent(openStore(), window(2000));
    await run.ask('Hello', 'fails');
    await expect(run.ask('Please fail.', 'fails')).rejects.toThrow('503 from the provider');
    expect((await run.history('fails')).map((m) => messageText(m))).toEqual([
      'Hello',
      'Answer to: Hello',
    ]);
    await run.ask('Weather in Rome?', 'fails');
    expect((await run.history('fails')).map((m) => m.role)).toEqual([
      ...['user', 'assistant'],
      ...['user', 'assistant', 'tool', 'assistant'],
    ]);
    expect(run.model.inputs.at(-1)?.map((m) => m.text)).not.toContain('Please fail.');
    run.close();
  });

  it('shows the model a thread that starts with an assistant greeting', async () => {
    const run = openAgent(openStore(), window(2000));
    const greeting = new AIMessage('Hi, I am Ada from Acme support. How can I help?');
    await run.agent.invoke(
      { messages: [greeting, new HumanMessage('Who are you?')] },
      { configurable: { thread_id: 'greeted' } },
    );
    expect(run.model.inputs[0]?.map((m) => [m.type, m.text])).toEqual([
      ['ai', greeting.text],
      ['human', 'Who are you?'],
    ]);
    await run.ask('And what can you do?', 'greeted');
    expect(run.model.inputs[1]?.[0]?.text).toBe(greeting.text);
    expect((await run.history('greeted')).map((m) => m.role)).toEqual([
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    run.close();
  });

  it("puts mem's system messages after the agent's system prompt, in one system message, stored once", async () => {
    const engine = createMemoryEngine({ profile: window(2000) });
    const model = new AnsweringChatModel();
    const agent = createAgent({
      model,
      tools: [],
      systemPrompt: 'You are Ada.',
      middleware: [memMiddleware({ engine })],
    });
    const rule = new SystemMessage('Always answer in English.');
    const config = { configurable: { thread_id: 'sys' } };
    await agent.invoke({ messages: [rule, new HumanMessage('Hola')] }, config);
    await agent.invoke({ messages: [rule, new HumanMessage('Hello')] }, config); // re-sent rule
    const input = model.inputs[1] ?? [];
    expect(input.map((m) => m.type)).toEqual(['system', 'human', 'ai', 'human']);
    expect(input[0]?.text).toBe('You are Ada.\n\nAlways answer in English.');
    const history = await engine.session('sys').history();
    expect(history.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('gives an older langchain 1.x request (systemPrompt only) the system text as a string', async () => {
    const engine = createMemoryEngine({ profile: window(2000) });
    await engine.session('old').append({ role: 'system', content: 'Be brief.' });
    const middleware = memMiddleware({ engine });
    const state = { messages: [new HumanMessage({ id: 'h1', content: 'Hi' })] };
    const runtime = { configurable: { thread_id: 'old' } };
    await middleware.beforeAgent(state, runtime);
    let sent: { messages: BaseMessage[]; systemPrompt?: string } | undefined;
    await middleware.wrapModelCall(
      { messages: state.messages, systemPrompt: 'You are Ada.', state, runtime },
      (request) => {
        sent = request;
        return new AIMessage('Hello!');
      },
    );
    expect(sent?.systemPrompt).toBe('You are Ada.\n\nBe brief.');
    expect(sent?.messages.map((m) => m.text)).toEqual(['Hi']);
  });

  it('refuses a malformed input message with a MemValidationError naming it, storing nothing', async () => {
    const run = openAgent(openStore(), window(2000));
    const bad = new HumanMessage({
      content: 'hi',
      additional_kwargs: { sentAt: new Date(0) },
    });
    const error = await run.agent
      .invoke(
        { messages: [new HumanMessage('first'), bad] },
        { configurable: { thread_id: 'bad' } },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MemValidationError);
    expect(error).toMatchObject({ field: 'messages[1].additional_kwargs' });
    expect((error as Error).message).toMatch(
      /^\[mem\/langchain\] messages\[1\]\.additional_kwargs/,
    );
    expect(run.model.inputs).toEqual([]);
    expect(await run.history('bad')).toEqual([]);
    run.close();
  });

  it('asks for an engine, and for a thread id at the first call', async () => {
    expect(() => memMiddleware({} as never)).toThrow(expect.objectContaining({ field: 'engine' }));
    const engine = createMemoryEngine({ profile: window(2000) });
    const model = new AnsweringChatModel();
    const agent = createAgent({ model, tools: [], middleware: [memMiddleware({ engine })] });
    const error = await agent
      .invoke({ messages: [new HumanMessage('hi')] })
      .catch((e: unknown) => e);
    expect(MemError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ field: 'config.configurable.thread_id' });
    expect(model.inputs).toEqual([]);
  });
});
