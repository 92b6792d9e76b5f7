import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreTests } from '@mem/store-test-suite';
import Database from 'better-sqlite3';
import { afterAll } from 'vitest';
import { createSqliteStore } from './sqlite-store.ts';

// (a) A real database file: every namespace of the run shares it, so isolation is really tested.
const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-suite-'));
const path = join(dir, 'suite.db');
let fileClock = Date.now();

runStoreTests('sqlite file', ({ namespace }) => createSqliteStore({ path, namespace }), {
  ttl: {
    ttlMs: 60_000,
    create: ({ namespace, ttlMs }) =>
      createSqliteStore({ path, namespace, ttlMs, now: () => fileClock }),
    advance: async (ms) => {
      fileClock += ms;
    },
  },
});

// (b) ':memory:' through one shared connection for every namespace.
const shared = new Database(':memory:');
let memoryClock = Date.now();

runStoreTests(
  'sqlite :memory:',
  ({ namespace }) => createSqliteStore({ database: shared, namespace }),
  {
    ttl: {
      ttlMs: 60_000,
      create: ({ namespace, ttlMs }) =>
        createSqliteStore({ database: shared, namespace, ttlMs, now: () => memoryClock }),
      advance: async (ms) => {
        memoryClock += ms;
      },
    },
  },
);

afterAll(() => {
  shared.close();
  rmSync(dir, { recursive: true, force: true });
});
