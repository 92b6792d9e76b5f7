import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@mem/core/backend';
import type { ProcessTestBackend } from '@mem/store-test-suite/processes';
import { createSqliteStore } from '../sqlite-store.ts';

/**
 * The store of the crash and multi-process tests (test process and workers alike): `place` is
 * the database file. A long busy timeout, since eight processes queue for SQLite's write lock.
 */
export const openWorkerStore = (path: string): Store =>
  createSqliteStore({ path, busyTimeoutMs: 120_000 });

/** The process tests' backend on one database file in a new temp dir; `remove` deletes the dir. */
export function sqliteProcessBackend(label: string): {
  backend: ProcessTestBackend;
  remove: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), `mem-sqlite-${label}-`));
  return {
    backend: {
      tag: 'sqlite',
      workerStore: new URL(import.meta.url),
      openStore: openWorkerStore,
      place: () => join(dir, `${label}.db`),
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
