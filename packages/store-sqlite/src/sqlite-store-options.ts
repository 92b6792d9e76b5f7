import { type ConfigIssue, MemConfigError } from '@mem/core';
import { namespaceOption } from '@mem/core/backend';
import type { Database } from 'better-sqlite3';

/** `synchronous` PRAGMA: `NORMAL` survives a process crash in WAL mode, `FULL` also power loss. */
export type SqliteSynchronous = 'NORMAL' | 'FULL';

interface SqliteStoreCommonOptions {
  /** The tenant this store is bound to: 1-64 letters, digits, `_` or `-`. Default `'default'`. */
  namespace?: string;
  /** Sessions expire this many ms after their last write. Default: never. */
  ttlMs?: number;
  /**
   * How long a call waits in all for another connection's lock, in ms. The wait is
   * asynchronous (timers keep running); past it the call fails with `MemStoreError`. Default 5,000.
   */
  busyTimeoutMs?: number;
  /**
   * Open for reading only: no WAL switch, no migration (the schema must be current), writes
   * fail with `MemStoreError`. A file this process may not write is opened so anyway. Default false.
   */
  readonly?: boolean;
  /** Durability of a commit (see the README). Default `'NORMAL'`. */
  synchronous?: SqliteSynchronous;
  /**
   * For a store opened per request (a `path` to a file): `close()` leaves the connection open,
   * idle, for the next store this process opens on the same file with the same options, instead
   * of closing it. That next store skips opening the file and preparing statements, and since
   * the file stays open, no close is its last one: SQLite checkpoints the WAL during writes
   * instead of on every close (two fsyncs) and does not delete it. What a store acknowledged
   * before `close()` is read by any later connection and survives the process being killed.
   * The file stays open (one idle connection per file and settings) until the process exits.
   * Default `false`. See the README.
   */
  reuseConnection?: boolean;
  /** Clock in ms since the epoch, for `createdAt`/`updatedAt` and TTL. Default `Date.now`. */
  now?: () => number;
}

/** Open a database file (created if missing), or `':memory:'` for a private in-memory database. */
export interface SqliteStorePathOptions extends SqliteStoreCommonOptions {
  path: string;
  database?: never;
}

/** Use an existing better-sqlite3 connection; the caller keeps ownership (close() leaves it open). */
export interface SqliteStoreDatabaseOptions extends SqliteStoreCommonOptions {
  database: Database;
  path?: never;
}

export type SqliteStoreOptions = SqliteStorePathOptions | SqliteStoreDatabaseOptions;

export interface CheckedSqliteStoreOptions {
  source: { kind: 'path'; path: string } | { kind: 'database'; database: Database };
  namespace: string;
  ttlMs: number | undefined;
  busyTimeoutMs: number;
  synchronous: SqliteSynchronous;
  readonly: boolean;
  reuseConnection: boolean;
  now: () => number;
}

/** Options with defaults applied. @throws MemConfigError listing every bad option. */
export function checkSqliteStoreOptions(
  options: SqliteStoreOptions,
  source = 'createSqliteStore options',
): CheckedSqliteStoreOptions {
  const issues: ConfigIssue[] = [];
  const given = (options ?? {}) as Partial<Record<keyof SqliteStorePathOptions, unknown>> & {
    database?: unknown;
  };
  const namespace = namespaceOption(given.namespace, issues);
  const { path, database, ttlMs, busyTimeoutMs, synchronous, readonly, reuseConnection, now } =
    given;
  if ((path === undefined) === (database === undefined)) {
    issues.push({ path: 'path', message: 'pass exactly one of `path` or `database`' });
  } else if (path !== undefined && (typeof path !== 'string' || path.length === 0)) {
    issues.push({ path: 'path', message: "expected a file path or ':memory:'" });
  } else if (database !== undefined && !isDatabase(database)) {
    issues.push({ path: 'database', message: 'expected an open better-sqlite3 Database' });
  }
  if (ttlMs !== undefined && !isPositive(ttlMs)) {
    issues.push({ path: 'ttlMs', message: 'expected a positive number of milliseconds' });
  }
  if (busyTimeoutMs !== undefined && !(isPositive(busyTimeoutMs) || busyTimeoutMs === 0)) {
    issues.push({ path: 'busyTimeoutMs', message: 'expected a non-negative number of ms' });
  }
  if (synchronous !== undefined && synchronous !== 'NORMAL' && synchronous !== 'FULL') {
    issues.push({ path: 'synchronous', message: "expected 'NORMAL' or 'FULL'" });
  }
  if (readonly !== undefined && typeof readonly !== 'boolean') {
    issues.push({ path: 'readonly', message: 'expected true or false' });
  }
  if (reuseConnection !== undefined && typeof reuseConnection !== 'boolean') {
    issues.push({ path: 'reuseConnection', message: 'expected true or false' });
  }
  if (now !== undefined && typeof now !== 'function') {
    issues.push({ path: 'now', message: 'expected a function returning ms since the epoch' });
  }
  if (issues.length > 0) throw new MemConfigError(issues, { source });
  return {
    source:
      database === undefined
        ? { kind: 'path', path: path as string }
        : { kind: 'database', database: database as Database },
    namespace: namespace as string,
    ttlMs: ttlMs as number | undefined,
    busyTimeoutMs: Math.floor((busyTimeoutMs as number | undefined) ?? 5_000),
    synchronous: (synchronous as SqliteSynchronous | undefined) ?? 'NORMAL',
    readonly: readonly === true,
    reuseConnection: reuseConnection === true,
    now: (now as (() => number) | undefined) ?? Date.now,
  };
}

function isPositive(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function isDatabase(value: unknown): value is Database {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { prepare?: unknown }).prepare === 'function' &&
    typeof (value as { transaction?: unknown }).transaction === 'function' &&
    typeof (value as { pragma?: unknown }).pragma === 'function'
  );
}
