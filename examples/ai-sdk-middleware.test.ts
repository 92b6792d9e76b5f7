import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messageText } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from './test-support/openai-server.ts';
import { runExample } from './test-support/run-example.ts';

describe('ai-sdk-middleware.ts (the @mem/ai-sdk README example)', () => {
  let server: OpenAIServer;
  let dir: string;

  beforeEach(async () => {
    server = await startOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), 'mem-ai-sdk-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the first exchange with the second question, through @ai-sdk/openai', async () => {
    const { stdout } = await runExample('ai-sdk-middleware', dir, server.baseURL);

    expect(server.requests.map((r) => r.authorization)).toEqual([
      'Bearer sk-loopback-test',
      'Bearer sk-loopback-test',
    ]);
    expect(server.requests[1]?.messages).toEqual([
      { role: 'user', content: 'My order AF-1042 arrived broken.' },
      { role: 'assistant', content: 'Reply 1.' },
      { role: 'user', content: 'Which order was that about?' },
    ]);
    expect(stdout.trim()).toBe('Reply 2.');
  });

  it('stores both exchanges in mem.db, and a second run continues the conversation', async () => {
    await runExample('ai-sdk-middleware', dir, server.baseURL);
    await runExample('ai-sdk-middleware', dir, server.baseURL);

    expect(server.requests[2]?.messages).toHaveLength(5);
    const store = createSqliteStore({ path: join(dir, 'mem.db') });
    try {
      const { messages } = await store.read('user-42');
      expect(messages.map((m) => [m.role, messageText(m)])).toEqual([
        ['user', 'My order AF-1042 arrived broken.'],
        ['assistant', 'Reply 1.'],
        ['user', 'Which order was that about?'],
        ['assistant', 'Reply 2.'],
        ['user', 'My order AF-1042 arrived broken.'],
        ['assistant', 'Reply 3.'],
        ['user', 'Which order was that about?'],
        ['assistant', 'Reply 4.'],
      ]);
    } finally {
      await store.close();
    }
  });
});
