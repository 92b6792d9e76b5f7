import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messageText } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from './test-support/openai-server.ts';
import { runExample } from './test-support/run-example.ts';

// @langchain/openai 1.x needs Node >= 22 (it depends on openai 7).
const question = 'My order AF-1042 arrived broken. What now?';
const system = { role: 'system', content: 'You are a support agent.' };

describe('langchain-quickstart.ts (the @mem/langchain README example)', () => {
  let server: OpenAIServer;
  let dir: string;

  beforeEach(async () => {
    server = await startOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), 'mem-langchain-quickstart-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the prompt through ChatOpenAI, prints the reply and stores both in mem.db', async () => {
    const { stdout } = await runExample('langchain-quickstart', dir, server.baseURL);

    expect(stdout.trim()).toBe('Reply 1.');
    expect(server.requests[0]?.messages).toEqual([system, { role: 'user', content: question }]);
    const store = createSqliteStore({ path: join(dir, 'mem.db') });
    try {
      const { messages } = await store.read('user-42');
      expect(messages.map((m) => [m.role, messageText(m)])).toEqual([
        ['user', question],
        ['assistant', 'Reply 1.'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('remembers across runs: the second run sends the first turn before the new question', async () => {
    await runExample('langchain-quickstart', dir, server.baseURL);
    await runExample('langchain-quickstart', dir, server.baseURL);

    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.messages).toEqual([
      system,
      { role: 'user', content: question },
      { role: 'assistant', content: 'Reply 1.' },
      { role: 'user', content: question },
    ]);
  });
});
