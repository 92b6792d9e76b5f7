import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messageText } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from './test-support/openai-server.ts';
import { runExample } from './test-support/run-example.ts';

const question = 'My order AF-1042 arrived broken. What now?';

describe('quick-start.ts (the root README example)', () => {
  let server: OpenAIServer;
  let dir: string;

  beforeEach(async () => {
    server = await startOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), 'mem-quick-start-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the user message to the model through the OpenAI SDK and prints the reply', async () => {
    const { stdout } = await runExample('quick-start', dir, server.baseURL);

    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.authorization).toBe('Bearer sk-loopback-test');
    expect(server.requests[0]?.messages).toEqual([{ role: 'user', content: question }]);
    expect(stdout.trim()).toBe('Reply 1.');
  });

  it('stores both messages in mem.db, where a new store finds them', async () => {
    await runExample('quick-start', dir, server.baseURL);

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
    await runExample('quick-start', dir, server.baseURL);
    await runExample('quick-start', dir, server.baseURL);

    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.messages).toEqual([
      { role: 'user', content: question },
      { role: 'assistant', content: 'Reply 1.' }, // no response-only fields echoed
      { role: 'user', content: question },
    ]);
  });
});
