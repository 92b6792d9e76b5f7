import { createMemoryEngine } from '@mem/core';
import { type AgentInputItem, run, type Session } from '@openai/agents';
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

/** Turn 1: the model calls get_weather, then answers; turn 2: it answers. */
async function weatherServer(): Promise<ResponsesServer> {
  const server = await startResponsesServer((_, n) => {
    if (n === 1) return [functionCall('call_1', 'get_weather', { city: 'Paris' })];
    if (n === 2) return [assistantText('msg_2', 'It is sunny in Paris.')];
    return [assistantText(`msg_${n}`, `Answer ${n}.`)];
  });
  cleanups.push(() => server.close());
  return server;
}

const stores = storeKinds('session');

/** Items as the Responses API receives them: role and type, and the text or call. */
function requestShape(input: Array<Record<string, unknown>>) {
  return input.map((item) => {
    if (item.type === 'function_call') return ['function_call', item.call_id, item.arguments];
    if (item.type === 'function_call_output')
      return ['function_call_output', item.call_id, item.output];
    const content = item.content;
    const text =
      typeof content === 'string' ? content : (content as Array<{ text: string }>)[0]?.text;
    return [item.role, text];
  });
}

describe.each(stores)('MemAgentsSession with run() on the %s', (_, openStore) => {
  it('gives the second run the first turn, tool call and result included', async () => {
    const server = await weatherServer();
    const agent = weatherAgent(server.baseURL);
    const engine = createMemoryEngine({ profile: {}, store: openStore() });
    const session = new MemAgentsSession({ engine, sessionId: 'user-42' });

    const first = await run(agent, 'Weather in Paris?', { session });
    expect(first.finalOutput).toBe('It is sunny in Paris.');
    const second = await run(agent, 'And tomorrow?', { session });
    expect(second.finalOutput).toBe('Answer 3.');

    expect(server.requests).toHaveLength(3);
    expect(requestShape(server.requests[2]!.input)).toStrictEqual([
      ['user', 'Weather in Paris?'],
      ['function_call', 'call_1', '{"city":"Paris"}'],
      ['function_call_output', 'call_1', 'Sunny in Paris, 21°C.'],
      ['assistant', 'It is sunny in Paris.'],
      ['user', 'And tomorrow?'],
    ]);
    // What mem holds: one message per item, with the roles mem's strategies work on.
    const stored = await engine.session('user-42').messages();
    expect(
      stored.map((m) => [m.role, m.toolCalls?.[0]?.name ?? m.toolName ?? m.content]),
    ).toStrictEqual([
      ['user', 'Weather in Paris?'],
      ['assistant', 'get_weather'],
      ['tool', 'get_weather'],
      ['assistant', 'It is sunny in Paris.'],
      ['user', 'And tomorrow?'],
      ['assistant', 'Answer 3.'],
    ]);
  });

  it('returns the tool call and result items exactly as the runner added them', async () => {
    const server = await weatherServer();
    const agent = weatherAgent(server.baseURL);
    const engine = createMemoryEngine({ profile: {}, store: openStore() });
    const session = new MemAgentsSession({ engine, sessionId: 'exact' });
    const added: AgentInputItem[][] = [];
    const spy: Session = {
      getSessionId: () => session.getSessionId(),
      getItems: (limit) => session.getItems(limit),
      addItems: (items) => {
        added.push(structuredClone(items));
        return session.addItems(items);
      },
      popItem: () => session.popItem(),
      clearSession: () => session.clearSession(),
    };
    await run(agent, 'Weather in Paris?', { session: spy });
    const items = await session.getItems();
    expect(items).toStrictEqual(added.flat());
    const call = items.find((i) => i.type === 'function_call');
    const result = items.find((i) => i.type === 'function_call_result');
    expect(call).toMatchObject({
      callId: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
    expect(result).toMatchObject({ callId: 'call_1', name: 'get_weather' });
    expect(await session.getItems(2)).toStrictEqual(items.slice(-2));
  });

  it('popItem removes the newest item, returns it, and the next run no longer sees it', async () => {
    const server = await weatherServer();
    const agent = weatherAgent(server.baseURL);
    const engine = createMemoryEngine({ profile: {}, store: openStore() });
    const session = new MemAgentsSession({ engine, sessionId: 'pop' });
    await run(agent, 'Weather in Paris?', { session });
    const before = await session.getItems();
    const popped = await session.popItem();
    expect(popped).toStrictEqual(before.at(-1));
    expect(popped).toMatchObject({ role: 'assistant' });
    expect(await session.getItems()).toStrictEqual(before.slice(0, -1));
    await run(agent, 'Again?', { session });
    const sent = requestShape(server.requests[2]!.input);
    expect(sent).not.toContainEqual(['assistant', 'It is sunny in Paris.']);
    expect(sent.at(-1)).toStrictEqual(['user', 'Again?']);
    await session.clearSession();
    expect(await session.getItems()).toStrictEqual([]);
    expect(await session.popItem()).toBeUndefined();
  });

  it('with a tight window, getItems returns only the window', async () => {
    const server = await weatherServer();
    const agent = weatherAgent(server.baseURL);
    const profile = {
      short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 40 }],
    };
    const engine = createMemoryEngine({ profile, store: openStore() });
    const session = new MemAgentsSession({ engine, sessionId: 'window' });
    await run(agent, 'Weather in Paris?', { session });
    await run(agent, 'And tomorrow?', { session });
    const all = await engine.session('window').messages();
    expect(all).toHaveLength(6);
    const items = await session.getItems();
    expect(items).toStrictEqual([
      { type: 'message', role: 'user', content: 'And tomorrow?' },
      expect.objectContaining({ role: 'assistant', type: 'message' }),
    ]);
    await run(agent, 'Thanks!', { session });
    expect(requestShape(server.requests[3]!.input)).toStrictEqual([
      ['user', 'And tomorrow?'],
      ['assistant', 'Answer 3.'],
      ['user', 'Thanks!'],
    ]);
  });

  it('sends the summary of older turns as a system item once the summarizer ran', async () => {
    const server = await weatherServer();
    const agent = weatherAgent(server.baseURL);
    const profile = {
      long_term_memory_strategy: [
        { long_term_memory_id: 'summarizer', interaction_threshold_qty: 1, interaction_keep: 1 },
      ],
    };
    const engine = createMemoryEngine({ profile, store: openStore() });
    const session = new MemAgentsSession({ engine, sessionId: 'summary' });
    await run(agent, 'Weather in Paris?', { session });
    await run(agent, 'And tomorrow?', { session });
    await engine.idle();
    expect(await engine.session('summary').summaries()).toHaveLength(1);
    await run(agent, 'Thanks!', { session });
    const sent = server.requests[3]!.input;
    expect(sent[0]).toMatchObject({ role: 'system' });
    expect(JSON.stringify(sent[0])).toContain('Paris');
    expect(requestShape(sent.slice(1))).toStrictEqual([
      ['user', 'And tomorrow?'],
      ['assistant', 'Answer 3.'],
      ['user', 'Thanks!'],
    ]);
  });
});
