import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messageText } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from './test-support/openai-server.ts';
import { runExample } from './test-support/run-example.ts';

// @langchain/openai 1.x needs Node >= 22 (it depends on openai 7).
const first = 'Where is my order AF-1042?';
const second = 'What now?';
const system = ['system', 'You are a support agent.'];

/** A request's messages as [role, text] (LangChain sends system text as parts, names answers). */
function lines(messages: ReadonlyArray<{ role: string; content: unknown }> | undefined) {
  return (messages ?? []).map((m) => [
    m.role,
    typeof m.content === 'string'
      ? m.content
      : (m.content as Array<{ text?: string }>).map((p) => p.text ?? '').join(''),
  ]);
}

describe('langchain-agent.ts (the @mem/langchain README quick start: createAgent + memMiddleware)', () => {
  let server: OpenAIServer;
  let dir: string;

  beforeEach(async () => {
    server = await startOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), 'mem-langchain-agent-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the second invoke sees the first turn from mem; both turns are stored in mem.db', async () => {
    const { stdout } = await runExample('langchain-agent', dir, server.baseURL);

    expect(stdout.trim()).toBe('Reply 2.');
    expect(server.requests).toHaveLength(2);
    expect(lines(server.requests[0]?.messages)).toEqual([system, ['user', first]]);
    expect(lines(server.requests[1]?.messages)).toEqual([
      system,
      ['user', first],
      ['assistant', 'Reply 1.'],
      ['user', second],
    ]);
    const store = createSqliteStore({ path: join(dir, 'mem.db') });
    try {
      const { messages } = await store.read('user-42');
      expect(messages.map((m) => [m.role, messageText(m)])).toEqual([
        ['user', first],
        ['assistant', 'Reply 1.'],
        ['user', second],
        ['assistant', 'Reply 2.'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('remembers across processes: a second run starts with the first run’s turns', async () => {
    await runExample('langchain-agent', dir, server.baseURL);
    await runExample('langchain-agent', dir, server.baseURL);

    expect(server.requests).toHaveLength(4);
    expect(lines(server.requests[2]?.messages)).toEqual([
      system,
      ['user', first],
      ['assistant', 'Reply 1.'],
      ['user', second],
      ['assistant', 'Reply 2.'],
      ['user', first],
    ]);
  });
});
