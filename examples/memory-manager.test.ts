import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryManager } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from './test-support/openai-server.ts';
import { runExample } from './test-support/run-example.ts';

describe('memory-manager.ts (the MemoryManager facade)', () => {
  let server: OpenAIServer;
  let dir: string;

  beforeEach(async () => {
    server = await startOpenAIServer();
    dir = await mkdtemp(join(tmpdir(), 'mem-memory-manager-'));
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the entries as the Memory Manager context text, with the tool call and result', async () => {
    const { stdout } = await runExample('memory-manager', dir, server.baseURL);

    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.messages).toEqual([
      {
        role: 'user',
        content: [
          '=== Recent Conversation ===',
          'User: Which files are in the repository?',
          'Tool call: shell({"command":"ls"})',
          'Tool result (shell): README.md\npackage.json\nsrc',
          '',
          "Reply to the user's last message.",
        ].join('\n'),
      },
    ]);
    expect(stdout).toContain('Reply 1.');
  });

  it('stores the four entries in mem.db, where a new MemoryManager finds them', async () => {
    await runExample('memory-manager', dir, server.baseURL);

    const store = createSqliteStore({ path: join(dir, 'mem.db') });
    try {
      const manager = new MemoryManager({ store });
      const entries = await manager.getActiveEntries('repo-agent');
      expect(entries.map((e) => [e.type, e.content])).toEqual([
        ['message', 'Which files are in the repository?'],
        ['tool_call', '{"command":"ls"}'],
        ['tool_result', 'README.md\npackage.json\nsrc'],
        ['message', 'Reply 1.'],
      ]);
    } finally {
      await store.close();
    }
  });
});
