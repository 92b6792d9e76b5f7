import {
  createInMemoryStore,
  createMemoryEngine,
  type MemoryEngineEvents,
  MemValidationError,
} from '@mem/core';
import { run } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import { assistantText, startResponsesServer } from './__fixtures__/responses-server.ts';
import { weatherAgent } from './__fixtures__/weather-agent.ts';
import { MemAgentsSession } from './mem-agents-session.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('MemAgentsSession counts tokens for the agent’s model', () => {
  it("reports the provider's input tokens of each run against mem's count, under the model's id", async () => {
    // The loopback server reports 10 × n input tokens for its n-th response.
    const server = await startResponsesServer((_, n) => [
      assistantText(`msg_${n}`, `Answer ${n}.`),
    ]);
    cleanups.push(() => server.close());
    const engine = createMemoryEngine({ profile: {}, store: createInMemoryStore() });
    const compared: MemoryEngineEvents['tokens:compared'][] = [];
    engine.on('tokens:compared', (e) => compared.push(e));
    const session = new MemAgentsSession({ engine, sessionId: 'm', model: 'claude-sonnet-4-5' });

    await run(weatherAgent(server.baseURL), 'Hello?', { session });
    await run(weatherAgent(server.baseURL), 'And again?', { session });

    expect(compared.map((c) => [c.model, c.encoding, c.reported])).toStrictEqual([
      ['claude-sonnet-4-5', 'claude', 10],
      ['claude-sonnet-4-5', 'claude', 20],
    ]);
  });

  it('refuses a model id no provider spells, naming the field', () => {
    const engine = createMemoryEngine({ profile: {}, store: createInMemoryStore() });
    expect(() => new MemAgentsSession({ engine, sessionId: 's', model: 'gpt 4o' })).toThrow(
      MemValidationError,
    );
  });
});
