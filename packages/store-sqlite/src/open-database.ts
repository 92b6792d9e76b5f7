import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { MemStoreError } from '@mem/core';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { cannotWrite, type FileIdentity, identify } from './database-file.ts';
import { isBusy, SYNC_BUSY_MS } from './lock-wait.ts';
import { migrate, SCHEMA_VERSION } from './migrations.ts';
import type { CheckedSqliteStoreOptions } from './sqlite-store-options.ts';

export interface OpenedDatabase {
  db: Database;
  /** True when this package opened the connection and so closes it. */
  owned: boolean;
  /** True when writes are refused: the `readonly` option, a read-only connection or file. */
  readonly: boolean;
  /** The file opened (none for an in-memory database), to notice it being deleted or replaced. */
  file: FileIdentity | undefined;
}

export type OpenOptions = Pick<
  CheckedSqliteStoreOptions,
  'source' | 'busyTimeoutMs' | 'synchronous' | 'readonly'
>;

/**
 * Opens (or adopts) the connection and sets the PRAGMAs. A writable connection is switched to
 * WAL (file databases only, and only when not in WAL yet) and migrated (only when its schema is
 * older); a read-only one is neither: its schema must be current.
 *
 * `busy_timeout` is kept short (`SYNC_BUSY_MS`): longer waits for a lock happen between
 * attempts (`createLockWaiter`), so `SQLITE_BUSY` is let through unwrapped for the caller to retry.
 *
 * @throws MemStoreError with the driver's error as `cause`.
 */
export function openDatabase(options: OpenOptions, label: string): OpenedDatabase {
  const { source } = options;
  let db: Database | undefined;
  const owned = source.kind === 'path';
  const where = source.kind === 'path' ? ` ${JSON.stringify(source.path)}` : '';
  if (owned) assertDriverRuns(installedDriverVersion(), process.versions.node);
  try {
    let readonly: boolean;
    if (source.kind === 'database') {
      db = source.database;
      readonly = options.readonly || db.readonly;
    } else {
      const { path } = source;
      readonly =
        path !== ':memory:' && (options.readonly || (existsSync(path) && cannotWrite(path)));
      db = readonly ? openReadOnly(path) : new BetterSqlite3(path);
    }
    const file = source.kind === 'database' ? fileOf(db) : identifyPath(source.path);
    db.pragma(`busy_timeout = ${Math.min(options.busyTimeoutMs, SYNC_BUSY_MS)}`);
    if (readonly) {
      assertCurrentSchema(db);
    } else {
      if (!db.memory && db.pragma('journal_mode', { simple: true }) !== 'wal') {
        db.pragma('journal_mode = WAL');
      }
      migrate(db);
    }
    db.pragma('foreign_keys = ON');
    db.pragma(`synchronous = ${options.synchronous}`);
    return { db, owned, readonly, file };
  } catch (error) {
    if (owned) db?.close();
    if (isBusy(error)) throw error;
    throw new MemStoreError(
      `[mem/sqlite] could not open the SQLite database${where} for ${label}: ${(error as Error).message}. Check the path, its permissions and that no other program holds the file locked.`,
      { cause: error },
    );
  }
}

/**
 * Opens a file for reading only. A WAL database in a directory this process may not write, with
 * no `-wal`/`-shm` beside it, cannot be opened by SQLite (it must create the shared-memory
 * index); no one can be writing it then (a writer would need the `-wal` file), so it is read
 * from a private in-memory copy of the file instead.
 */
function openReadOnly(path: string): Database {
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('user_version', { simple: true });
    return db;
  } catch (error) {
    db.close();
    const code = (error as { code?: unknown }).code;
    const cannotIndex = code === 'SQLITE_READONLY_DIRECTORY' || code === 'SQLITE_CANTOPEN';
    if (!cannotIndex || existsSync(`${path}-wal`)) throw error;
  }
  const image = readFileSync(path);
  // Header bytes 18-19 (write / read format version) are 2 in WAL mode: 1 reads the copy
  // as a rollback-journal database, which an in-memory database supports.
  if (image[18] === 2 && image[19] === 2) image.fill(1, 18, 20);
  return new BetterSqlite3(image, { readonly: true });
}

/**
 * better-sqlite3 13 needs Node >= 22: on Node 20 it crashes the process (segfault) when it opens
 * a database. npm and pnpm install the newest version a peer range admits, so a Node 20 user who
 * did not pick one gets 13: refuse it with a clear error before it can crash.
 * @throws MemStoreError naming both versions and the fix.
 */
export function assertDriverRuns(driverVersion: string | undefined, nodeVersion: string): void {
  const driverMajor = Number(driverVersion?.split('.')[0]);
  const nodeMajor = Number(nodeVersion.split('.')[0]);
  if (!(driverMajor >= 13 && nodeMajor < 22)) return;
  throw new MemStoreError(
    `[mem/sqlite] better-sqlite3 ${driverVersion} needs Node.js >= 22, and this is Node.js ${nodeVersion}: it would crash the process. Install better-sqlite3 12 (\`npm install better-sqlite3@^12.6.2\`) or run on Node.js 22 or 24 (Node.js 20 is end-of-life).`,
  );
}

let driverVersion: string | null | undefined = null;

/** The version of the better-sqlite3 this package imports (undefined when it cannot be read). */
function installedDriverVersion(): string | undefined {
  if (driverVersion === null) {
    try {
      driverVersion = (
        createRequire(import.meta.url)('better-sqlite3/package.json') as { version?: string }
      ).version;
    } catch {
      driverVersion = undefined;
    }
  }
  return driverVersion;
}

function identifyPath(path: string): FileIdentity | undefined {
  return path === ':memory:' ? undefined : identify(path);
}

/** The file behind a caller's connection, if it has one. */
function fileOf(db: Database): FileIdentity | undefined {
  if (db.memory || db.name === '' || db.name.startsWith('file:')) return undefined;
  return identify(db.name);
}

function assertCurrentSchema(db: Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === SCHEMA_VERSION) return;
  throw new Error(
    version > SCHEMA_VERSION
      ? `schema version ${version} is newer than this package supports (${SCHEMA_VERSION}); upgrade @mem/store-sqlite`
      : `schema version ${version} is older than this package's (${SCHEMA_VERSION}) and a read-only database is never migrated; open it once without \`readonly\`, as a user who may write it, to migrate it`,
  );
}
