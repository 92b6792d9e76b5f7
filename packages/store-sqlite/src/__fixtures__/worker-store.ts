import type { Store } from '@mem/core/backend';
import { createSqliteStore } from '../sqlite-store.ts';

/**
 * The store of the crash and multi-process tests (test process and workers alike): `place` is
 * the database file. A long busy timeout, since eight processes queue for SQLite's write lock.
 */
export const openWorkerStore = (path: string): Store =>
  createSqliteStore({ path, busyTimeoutMs: 120_000 });
