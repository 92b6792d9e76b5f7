import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEngineTests } from '@mem/store-test-suite';
import { createSqliteKnowledgeBase } from './sqlite-knowledge-base.ts';
import { createSqliteStore } from './sqlite-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-e2e-'));

// A place is a database file; each store or knowledge base opened on it is a new connection.
runEngineTests(
  'SQLite',
  (label) => {
    const path = join(dir, `${label}.db`);
    return {
      store: (options) => createSqliteStore({ path, ...options }),
      knowledgeBase: () => createSqliteKnowledgeBase({ path }),
    };
  },
  { cleanup: () => rmSync(dir, { recursive: true, force: true }) },
);
