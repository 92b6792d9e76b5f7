import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AIMessage,
  type AIMessageFields,
  HumanMessage,
  type ToolMessage,
} from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createMemoryEngine, MemError, MemValidationError, type Store } from '@mem/core';
import { promptProblems } from '@mem/core/strategies';
import { createSqliteStore } from '@mem/store-sqlite';
import { createAgent } from 'langchain';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedChatModel } from './__fixtures__/scripted-chat-model.ts';
import { langChainFields } from './convert/__fixtures__/langchain-arbitraries.ts';
import { fromLangChainMessages } from './convert/from-langchain.ts';
import { toLangChainMessages } from './convert/to-langchain.ts';
import { memSessionHooks } from './mem-session-hooks.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-langchain-hooks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const profile = {
  short_term_memory_strategy: [
    { memory_strategy_id: 'max_tokens', memory_max_tokens: 400, conditions: [] },
  ],
};
const getWeather = tool(async ({ city }) => `18°C and sunny in ${city}.`, {
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: z.object({ city: z.string() }),
});

/** One run of an app: its own SQLite store and engine, a ReAct agent on mem's hooks. */
function openRun(replies: AIMessage[]) {
  const store = createSqliteStore({ path: join(dir, 'agent.db') });
  const engine = createMemoryEngine({ profile, store });
  const llm = new ScriptedChatModel(replies);
  const agent = createReactAgent({ llm, tools: [getWeather], ...memSessionHooks({ engine }) });
  const ask = (text: string, thread_id: string) =>
    agent.invoke({ messages: [new HumanMessage(text)] }, { configurable: { thread_id } });
  return { engine, llm, ask, close: () => (store as Store & { close(): void }).close() };
}

const toolCall = new AIMessage({
  content: 'Checking.',
  tool_calls: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', args: { city: 'Lisbon' } }],
  usage_metadata: { input_tokens: 20, output_tokens: 9, total_tokens: 29 },
} as unknown as AIMessageFields);

describe('memSessionHooks on createReactAgent', () => {
  it('keeps a thread across two runs on a SQLite file, tool call and result exactly', async () => {
    const first = openRun([toolCall, new AIMessage('18°C and sunny in Lisbon.')]);
    const one = await first.ask('Weather in Lisbon?', 'thread-1');
    expect(one.messages.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'ai']);
    const stored = toLangChainMessages(await first.engine.session('thread-1').history());
    expect(stored.map(langChainFields)).toEqual(one.messages.map(langChainFields));
    first.close();

    const second = openRun([new AIMessage('You asked about Lisbon.')]);
    const two = await second.ask('Which city did I ask about?', 'thread-1');
    expect(two.messages).toHaveLength(2); // the run passed only its own messages
    const seen = second.llm.inputs[0] ?? [];
    expect(seen.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'ai', 'human']);
    expect(seen.slice(0, 4).map(langChainFields)).toEqual(one.messages.map(langChainFields));
    expect((seen[2] as ToolMessage).tool_call_id).toBe('call_1');
    const history = await second.engine.session('thread-1').history();
    expect(history.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(await second.engine.session('thread-2').history()).toEqual([]);
    second.close();
  });

  it("gives the model mem's window: within the profile's budget, tool calls with their results", async () => {
    const run = openRun(
      Array.from({ length: 8 }, (_, i) => [
        new AIMessage({
          content: '',
          tool_calls: [
            { type: 'tool_call', id: `c${i}`, name: 'get_weather', args: { city: `City ${i}` } },
          ],
        }),
        new AIMessage(`It is sunny in City ${i}, as it was yesterday and the day before that.`),
      ]).flat(),
    );
    for (let i = 0; i < 8; i++)
      await run.ask(`What is the weather like in City ${i} today?`, 'budget');
    const counter = run.engine.tokenCounter;
    for (const input of run.llm.inputs) {
      const mem = fromLangChainMessages(input);
      const tokens = mem.reduce((s, m) => s + counter.countMessage(m), counter.replyPrimingTokens);
      expect(tokens).toBeLessThanOrEqual(400);
      expect(promptProblems(mem)).toEqual([]);
    }
    expect(run.llm.inputs.at(-1)?.length).toBeLessThan(31);
    expect(await run.engine.session('budget').history()).toHaveLength(32);
    run.close();
  });

  it('refuses loudly inside createAgent: no type-check, and a MEM_CONFIG MemError naming memMiddleware before the model runs', async () => {
    const engine = createMemoryEngine({ profile });
    const llm = new ScriptedChatModel([new AIMessage('Hello!')]);
    // createAgent (LangChain v1) never calls preModelHook/postModelHook: the spread must not compile.
    // @ts-expect-error memSessionHooks are for createReactAgent; createAgent takes memMiddleware.
    const agent = createAgent({ model: llm, tools: [getWeather], ...memSessionHooks({ engine }) });
    const error = await agent
      .invoke({ messages: [new HumanMessage('hi')] }, { configurable: { thread_id: 'v1' } })
      .catch((e: unknown) => e);
    expect(MemError.hasCode(error, 'MEM_CONFIG')).toBe(true);
    expect((error as Error).message).toMatch(
      /^\[mem\/langchain\] memSessionHooks were passed to createAgent/,
    );
    expect((error as Error).message).toContain('middleware: [memMiddleware({ engine })]');
    expect(llm.inputs).toEqual([]); // refused before the model was called
    expect(await engine.session('v1').history()).toEqual([]);
  });

  it('asks for a thread id or an engine with a MemValidationError', async () => {
    expect(() => memSessionHooks({} as never)).toThrow(
      expect.objectContaining({ field: 'engine' }),
    );
    const { preModelHook } = memSessionHooks({ engine: createMemoryEngine({ profile }) });
    await expect(preModelHook({ messages: [] })).rejects.toThrow(
      expect.objectContaining({ field: 'config.configurable.thread_id' }),
    );
    await expect(
      preModelHook({ messages: [new HumanMessage('hi')] }, { configurable: { thread_id: 't' } }),
    ).rejects.toBeInstanceOf(MemValidationError);
  });
});
