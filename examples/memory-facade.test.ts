import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Memory } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from './test-support/openai-server.ts';
import { runExample } from './test-support/run-example.ts';

const question = 'Which plan did I pick, and why?';

describe('memory-facade.ts (the Memory facade)', () => {
  let server: OpenAIServer;
  let dir: string;

  beforeEach(async () => {
    server = await startOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), 'mem-memory-facade-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the question, stores the turn, and sends that turn again on the next run', async () => {
    const first = await runExample('memory-facade', dir, server.baseURL);
    await runExample('memory-facade', dir, server.baseURL);

    expect(first.stdout.trim()).toBe('Reply 1.');
    expect(server.requests.map((r) => r.messages)).toEqual([
      [{ role: 'user', content: question }],
      [
        { role: 'user', content: question },
        { role: 'assistant', content: 'Reply 1.' },
        { role: 'user', content: question },
      ],
    ]);
  });

  it('leaves the conversation in mem.db, where a new Memory on the same session reads it', async () => {
    await runExample('memory-facade', dir, server.baseURL);

    const store = createSqliteStore({ path: join(dir, 'mem.db') });
    try {
      const memory = new Memory({ store, sessionId: 'user-42' });
      expect(await memory.text()).toBe(`User: ${question}\nAssistant: Reply 1.`);
    } finally {
      await store.close();
    }
  });
});
