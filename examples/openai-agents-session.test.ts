import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '@mem/store-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assistantText,
  functionCall,
  type ResponsesServer,
  startResponsesServer,
} from '../packages/openai-agents/src/__fixtures__/responses-server.ts';
import { runExample } from './test-support/run-example.ts';

// The example's child process inherits this: no trace export to api.openai.com.
process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';

describe('openai-agents-session.ts (the @mem/openai-agents README example)', () => {
  let server: ResponsesServer;
  let dir: string;

  beforeEach(async () => {
    // Each run: the model calls get_weather, then answers.
    server = await startResponsesServer((_, n) =>
      n % 2 === 1
        ? [functionCall(`call_${n}`, 'get_weather', { city: 'Paris' })]
        : [assistantText(`msg_${n}`, `Sunny, answer ${n}.`)],
    );
    dir = await mkdtemp(join(tmpdir(), 'mem-agents-example-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the agent with its tool and prints the answer; mem.db holds the turn', async () => {
    const { stdout } = await runExample('openai-agents-session', dir, server.baseURL);
    expect(stdout.trim()).toBe('Sunny, answer 2.');
    expect(server.requests).toHaveLength(2);
    const store = createSqliteStore({ path: join(dir, 'mem.db') });
    try {
      const { messages } = await store.read('user-42');
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    } finally {
      await store.close();
    }
  });

  it('remembers across runs: the second run sends the first turn, tool call included', async () => {
    await runExample('openai-agents-session', dir, server.baseURL);
    await runExample('openai-agents-session', dir, server.baseURL);
    const input = server.requests[2]?.input ?? [];
    expect(input.map((item) => item.type ?? item.role)).toEqual([
      'user', // the first input, exactly as stored
      'function_call',
      'function_call_output',
      'message',
      'user', // the new input, as the runner sends it
    ]);
    expect(input[1]).toMatchObject({ call_id: 'call_1', name: 'get_weather' });
    expect(input.at(-1)).toMatchObject({ role: 'user', content: 'What is the weather in Paris?' });
  });
});
