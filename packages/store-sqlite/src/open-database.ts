import { MemStoreError } from '@mem/core';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { migrate } from './migrations.ts';
import type { CheckedSqliteStoreOptions } from './sqlite-store-options.ts';

export interface OpenedDatabase {
  db: Database;
  /** True when this package opened the connection and so closes it. */
  owned: boolean;
}

/**
 * Opens (or adopts) the connection, sets the PRAGMAs and migrates the schema. WAL is switched on
 * for file databases only (an in-memory database has no WAL).
 *
 * @throws MemStoreError with the driver's error as `cause`.
 */
export function openDatabase(
  options: Pick<CheckedSqliteStoreOptions, 'source' | 'busyTimeoutMs' | 'synchronous'>,
  label: string,
): OpenedDatabase {
  const { source } = options;
  let db: Database | undefined;
  const owned = source.kind === 'path';
  try {
    db = source.kind === 'path' ? new BetterSqlite3(source.path) : source.database;
    db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
    if (!db.memory) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`synchronous = ${options.synchronous}`);
    migrate(db);
    return { db, owned };
  } catch (error) {
    if (owned) db?.close();
    const where = source.kind === 'path' ? ` ${JSON.stringify(source.path)}` : '';
    throw new MemStoreError(
      `[mem/sqlite] could not open the SQLite database${where} for ${label}: ${(error as Error).message}. Check the path, its permissions and that no other program holds the file locked.`,
      { cause: error },
    );
  }
}
