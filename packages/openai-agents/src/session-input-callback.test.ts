import { createMemoryEngine } from '@mem/core';
import { run } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assistantText,
  functionCall,
  type ResponsesServer,
  startResponsesServer,
} from './__fixtures__/responses-server.ts';
import { storeKinds } from './__fixtures__/store-kinds.ts';
import { weatherAgent } from './__fixtures__/weather-agent.ts';
import { MemAgentsSession } from './mem-agents-session.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** "Weather in Paris?" gets a get_weather call, then an answer; anything else "Noted.". */
async function server(): Promise<ResponsesServer> {
  const s = await startResponsesServer((request, n) => {
    const last = request.input.at(-1);
    if (last?.role === 'user' && last.content === 'Weather in Paris?') {
      return [functionCall(`call_${n}`, 'get_weather', { city: 'Paris' })];
    }
    return [assistantText(`msg_${n}`, last?.type === 'function_call_output' ? 'Sunny.' : 'Noted.')];
  });
  cleanups.push(() => s.close());
  return s;
}

/** A window of ~2 short turns, the summarizer and a knowledge base searched for every request. */
const profile = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 60 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      knowledge_base: { collection_id: 'chats', search_mode: 'always' },
    },
  ],
};

const text = (item: Record<string, unknown>) =>
  typeof item.content === 'string' ? item.content : JSON.stringify(item.content ?? item.type);

describe.each(storeKinds('input-callback'))(
  'MemAgentsSession.sessionInputCallback with run() on the %s',
  (_, openStore) => {
    it("searches knowledge for the turn's new question, not the one before it", async () => {
      const loopback = await server();
      const agent = weatherAgent(loopback.baseURL);
      const engine = createMemoryEngine({ profile, store: openStore() });
      const session = new MemAgentsSession({ engine, sessionId: 'chat' });
      const say = (input: string) =>
        run(agent, input, { session, sessionInputCallback: session.sessionInputCallback });
      await say('The spare key is under the blue flowerpot.');
      for (let i = 1; i <= 6; i++) await say(`Small talk number ${i}, nothing to note.`);
      await engine.idle();

      await say('Where is the spare key?');

      const sent = loopback.requests.at(-1)?.input ?? [];
      expect(JSON.stringify(sent)).toContain('blue flowerpot');
      // Recalled, not in the window: the turn itself is long gone from it.
      expect(sent.filter((i) => i.role === 'user').map(text)).not.toContain(
        'The spare key is under the blue flowerpot.',
      );
      expect(sent.at(-1)).toStrictEqual({ role: 'user', content: 'Where is the spare key?' });
    });

    it('stores every item of a tool-calling turn once, and none of mem’s own', async () => {
      const loopback = await server();
      const agent = weatherAgent(loopback.baseURL);
      const engine = createMemoryEngine({ profile, store: openStore() });
      const session = new MemAgentsSession({ engine, sessionId: 'tools' });
      const say = (input: string) =>
        run(agent, input, { session, sessionInputCallback: session.sessionInputCallback });

      await say('Weather in Paris?');
      await say('Thanks!');
      await engine.idle();
      await say('Weather in Paris?');

      const stored = await engine.session('tools').history();
      expect(stored.map((m) => [m.role, m.toolCalls?.[0]?.name ?? m.content])).toStrictEqual([
        ['user', 'Weather in Paris?'],
        ['assistant', 'get_weather'],
        ['tool', 'Sunny in Paris, 21°C.'],
        ['assistant', 'Sunny.'],
        ['user', 'Thanks!'],
        ['assistant', 'Noted.'],
        ['user', 'Weather in Paris?'],
        ['assistant', 'get_weather'],
        ['tool', 'Sunny in Paris, 21°C.'],
        ['assistant', 'Sunny.'],
      ]);
    });

    it('puts a system item of the input after the stored context and stores it once', async () => {
      const loopback = await server();
      const agent = weatherAgent(loopback.baseURL);
      const engine = createMemoryEngine({ profile: {}, store: openStore() });
      const session = new MemAgentsSession({ engine, sessionId: 'system' });
      const options = { session, sessionInputCallback: session.sessionInputCallback };
      await run(agent, 'Hello.', options);

      await run(
        agent,
        [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hello again.' },
        ],
        options,
      );

      expect((loopback.requests.at(-1)?.input ?? []).map(text)).toStrictEqual([
        'Hello.',
        JSON.stringify([{ type: 'output_text', text: 'Noted.', annotations: [] }]),
        'Answer in French.',
        'Hello again.',
      ]);
      expect((await engine.session('system').history()).map((m) => m.role)).toStrictEqual([
        'user',
        'assistant',
        'system',
        'user',
        'assistant',
      ]);
    });
  },
);
