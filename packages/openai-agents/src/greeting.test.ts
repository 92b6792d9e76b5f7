import { createMemoryEngine } from '@mem/core';
import { type AgentInputItem, run } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import { assistantText, startResponsesServer } from './__fixtures__/responses-server.ts';
import { storeKinds } from './__fixtures__/store-kinds.ts';
import { weatherAgent } from './__fixtures__/weather-agent.ts';
import { MemAgentsSession } from './mem-agents-session.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const stores = storeKinds('greeting');
const profiles: Array<[string, object]> = [
  ['no strategy', {}],
  [
    'max_tokens 8000',
    { short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 8000 }] },
  ],
];

const greeting = {
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text: 'Hi! Your booking code is BK-7781.' }],
} as AgentInputItem;
const question = { type: 'message', role: 'user', content: 'What was my booking code?' };

describe.each(stores)('a conversation the agent opens, on the %s', (_, openStore) => {
  it.each(profiles)(
    "getItems shows the opening greeting before the user's question (%s)",
    async (_, profile) => {
      const store = openStore();
      const session = new MemAgentsSession({
        engine: createMemoryEngine({ profile, store }),
        sessionId: 'greet',
      });
      await session.addItems([greeting]);
      await session.addItems([question as AgentInputItem]);
      expect(await session.getItems()).toStrictEqual([greeting, question]);
      // A fresh engine reads it back from the store the same way.
      const reloaded = new MemAgentsSession({
        engine: createMemoryEngine({ profile, store }),
        sessionId: 'greet',
      });
      expect(await reloaded.getItems()).toStrictEqual([greeting, question]);
    },
  );

  it('keeps an opening tool call with its result, and drops the opening whole when it cannot fit', async () => {
    const store = openStore();
    const opening = [
      { type: 'function_call', callId: 'c1', name: 'find_booking', arguments: '{"user":"u1"}' },
      {
        type: 'function_call_result',
        callId: 'c1',
        name: 'find_booking',
        status: 'completed',
        output: 'BK-7781',
      },
      greeting,
    ] as AgentInputItem[];
    const window = (memory_max_tokens: number) =>
      new MemAgentsSession({
        engine: createMemoryEngine({
          store,
          profile: {
            short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens }],
          },
        }),
        sessionId: 'tools',
      });
    await window(8000).addItems(opening);
    await window(8000).addItems([question as AgentInputItem]);
    expect(await window(8000).getItems()).toStrictEqual([...opening, question]);
    const { tokenCount } = await createMemoryEngine({ store, profile: {} })
      .session('tools')
      .context();
    // One token short of the whole prompt: the opening goes as a whole, the question stays.
    expect(await window(tokenCount - 1).getItems()).toStrictEqual([question]);
  });

  it('run() sends the greeting to the model before the question', async () => {
    const server = await startResponsesServer(() => [assistantText('msg_1', 'BK-7781.')]);
    cleanups.push(() => server.close());
    const engine = createMemoryEngine({ profile: {}, store: openStore() });
    // The app wrote the outreach through mem directly, before the user ever answered.
    await engine.session('outreach').append({
      role: 'assistant',
      content: 'Hi! Your booking code is BK-7781.',
    });
    const session = new MemAgentsSession({ engine, sessionId: 'outreach' });
    const result = await run(weatherAgent(server.baseURL), 'What was my booking code?', {
      session,
    });
    expect(result.finalOutput).toBe('BK-7781.');
    const sent = server.requests[0]!.input.map((item) => {
      const content = item.content as string | Array<{ text: string }>;
      return [item.role, typeof content === 'string' ? content : content[0]?.text];
    });
    expect(sent).toStrictEqual([
      ['assistant', 'Hi! Your booking code is BK-7781.'],
      ['user', 'What was my booking code?'],
    ]);
  });
});
