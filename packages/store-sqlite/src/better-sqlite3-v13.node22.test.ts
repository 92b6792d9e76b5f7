// better-sqlite3 13 (Node >= 22 only: on Node 20 it crashes the process) under the store and
// knowledge-base conformance suites. Installed as `better-sqlite3-v13` next to 12.6.2, which the
// rest of the tests use; the store and knowledge base take its connections through `database`.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runKnowledgeBaseTests, runStoreTests } from '@mem/store-test-suite';
import Database from 'better-sqlite3-v13';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteKnowledgeBase } from './sqlite-knowledge-base.ts';
import { createSqliteStore } from './sqlite-store.ts';

const version = (
  createRequire(import.meta.url)('better-sqlite3-v13/package.json') as { version: string }
).version;

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-v13-'));
// A real file (WAL, shared by every namespace of the run) and a private in-memory database.
const file = new Database(join(dir, 'suite.db'));
const memory = new Database(':memory:');
afterAll(() => {
  file.close();
  memory.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('better-sqlite3 13', () => {
  it('is the driver under test', () => {
    expect(version.split('.')[0]).toBe('13');
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
  });

  it('switches a file database to WAL and migrates it on first use', async () => {
    const store = createSqliteStore({ database: file, namespace: 'wal_check' });
    await store.info('s');
    expect(file.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(file.pragma('user_version', { simple: true })).toBeGreaterThan(0);
    await store.close();
    expect(file.open).toBe(true);
  });
});

let clock = Date.now();
for (const [label, db] of [
  ['file', file],
  [':memory:', memory],
] as const) {
  runStoreTests(
    `sqlite on better-sqlite3 13, ${label}`,
    ({ namespace }) => createSqliteStore({ database: db, namespace }),
    {
      ttl: {
        ttlMs: 60_000,
        create: ({ namespace, ttlMs }) =>
          createSqliteStore({ database: db, namespace, ttlMs, now: () => clock }),
        advance: async (ms) => {
          clock += ms;
        },
      },
    },
  );
  runKnowledgeBaseTests(`sqlite knowledge base on better-sqlite3 13, ${label}`, (options) =>
    createSqliteKnowledgeBase({ database: db, ...options }),
  );
}
