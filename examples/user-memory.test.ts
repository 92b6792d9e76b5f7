import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteKnowledgeBase, createSqliteStore } from '@mem/store-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from './test-support/openai-server.ts';
import { runExample } from './test-support/run-example.ts';

/** The text of every message of a request, one string per message. */
const texts = (messages: unknown[]): string[] =>
  messages.map((m) => {
    const content = (m as { content?: unknown }).content;
    return typeof content === 'string' ? content : JSON.stringify(content);
  });

describe('user-memory.ts (two chats of one user, a corrected fact, forgetUser)', () => {
  let server: OpenAIServer;
  let dir: string;

  beforeEach(async () => {
    server = await startOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), 'mem-user-memory-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("the new chat's prompt holds Monday's locker code and the corrected city, not the old one", async () => {
    await runExample('user-memory', dir, server.baseURL);

    expect(server.requests).toHaveLength(3);
    const friday = texts(server.requests[2]!.messages);
    expect(friday.at(-1)).toBe('What was my locker code again?');
    expect(friday.join('\n')).toContain('4711');
    const facts = server.requests[2]!.messages.filter(
      (m) =>
        (m as { role: string }).role === 'system' &&
        texts([m])[0]!.startsWith('What you know about the user'),
    );
    expect(facts).toHaveLength(1);
    expect(texts(facts)[0]).toContain('Porto');
    expect(texts(facts)[0]).not.toContain('Lisbon');
  });

  it('prints the facts with the correction, and what forgetUser removed', async () => {
    const { stdout } = await runExample('user-memory', dir, server.baseURL);

    expect(stdout).toMatch(/Porto/);
    expect(stdout).toMatch(/sessions: 2/);
    expect(stdout).toMatch(/facts: [1-9]/);
    expect(stdout).toMatch(/chunks: [1-9]/);
  });

  it('leaves nothing of the user in mem.db', async () => {
    await runExample('user-memory', dir, server.baseURL);

    const store = createSqliteStore({ path: join(dir, 'mem.db') });
    const kb = createSqliteKnowledgeBase({ path: join(dir, 'mem.db') });
    try {
      expect((await store.list({ userId: 'ana' })).sessionIds).toEqual([]);
      expect(await store.info('monday')).toBeNull();
      expect(await store.info('friday')).toBeNull();
      expect((await store.userFacts('ana')).facts).toEqual([]);
      expect(await kb.count('chats', { userId: 'ana' })).toBe(0);
      expect(await kb.count('chats')).toBe(0);
    } finally {
      await kb.close();
      await store.close();
    }
  });
});
