import { resolve } from 'node:path';
import { MemError, MemStoreError } from '@mem/core';
import type { Database, Statement } from 'better-sqlite3';
import { assertSameFile, identify } from './database-file.ts';
import { createLockWaiter } from './lock-wait.ts';
import { type OpenedDatabase, type OpenOptions, openDatabase } from './open-database.ts';

/**
 * One better-sqlite3 connection with its prepared statements `S`, opened on first use. Each call
 * is one synchronous transaction; while another connection holds the lock it needs, the call
 * waits on timers (up to `busyTimeoutMs` in all), never blocking the event loop for long.
 */
export interface Connection<S> {
  /**
   * Runs `work` in a BEGIN IMMEDIATE transaction: takes the write lock first, so writers
   * serialize. Writes of this connection apply in call order. `committed` runs right after the
   * COMMIT, in the same synchronous step (no other call of this process runs in between).
   */
  write<R>(
    work: (st: S, db: Database) => R,
    committed?: (result: R, mark: ChangeMark) => void,
  ): Promise<R>;
  /** Runs `work` in a deferred (read) transaction: one consistent snapshot. */
  read<R>(work: (st: S, db: Database) => R): Promise<R>;
  /**
   * A mark of the database as this process sees it now, outside any transaction: what a read
   * started after it sees is at least as new. With `unchanged`, tells whether anything was
   * committed since.
   */
  mark(): ChangeMark;
  /**
   * True when nothing was committed to the database since `mark` was taken: neither through this
   * Database object by any store or knowledge base of this package, nor by any other connection
   * or process (`PRAGMA data_version`). Also checks, like a read, that the file is still there.
   */
  unchanged(mark: ChangeMark): boolean;
  /**
   * Closes the database if this package opened it (with `reuseConnection`, leaves it open and
   * idle for the next connection to the same file instead); later calls fail.
   */
  close(): void;
}

type Runner = ((work: () => unknown) => unknown) & { immediate: (work: () => unknown) => unknown };

interface Prepared {
  tx: Runner;
  statements: Map<(db: Database) => unknown, unknown>;
  /** Commits made through this Database object by this package's connections. */
  writes: number;
  dataVersion: Statement | undefined;
}

/** See `Connection.mark`: which Database, its `data_version` and its count of commits then. */
export interface ChangeMark {
  readonly db: Database;
  readonly dataVersion: unknown;
  readonly writes: number;
}

function markOf(db: Database, entry: Prepared): ChangeMark {
  entry.dataVersion ??= db.prepare('PRAGMA data_version').pluck();
  return { db, dataVersion: entry.dataVersion.get(), writes: entry.writes };
}

/** Statements and transaction wrappers are prepared once per Database, shared by its users. */
const preparedFor = new WeakMap<Database, Prepared>();

export type ConnectOptions = OpenOptions & { reuseConnection?: boolean };

/**
 * Connections `close()` left open for reuse (`reuseConnection`): at most one per label, file and
 * settings. Idle, each holds no transaction, so it never stops a checkpoint; being open, it keeps
 * every other connection's close from being the file's last (which checkpoints and deletes the
 * WAL). Kept until the process exits.
 */
const idle = new Map<string, OpenedDatabase>();

function idleKey(options: ConnectOptions, label: string, path: string): string {
  return `${label}\n${options.busyTimeoutMs}\n${options.synchronous}\n${path}`;
}

/** Whether connections of these options may be left open and reused. */
function reusable(options: ConnectOptions, setup: unknown): boolean {
  const { source } = options;
  return (
    options.reuseConnection === true &&
    setup === undefined &&
    !options.readonly &&
    source.kind === 'path' &&
    source.path !== ':memory:'
  );
}

/** An idle connection to the file the path names now, if one was left; else undefined. */
function takeIdle(options: ConnectOptions, label: string): OpenedDatabase | undefined {
  const { path } = options.source as { path: string };
  const key = idleKey(options, label, resolve(path));
  const entry = idle.get(key);
  if (entry === undefined) return undefined;
  idle.delete(key);
  const file = identify(path);
  const same =
    file !== undefined &&
    entry.file !== undefined &&
    entry.file.dev === file.dev &&
    entry.file.ino === file.ino;
  // A file replaced or deleted since: its connection is of no use to anyone.
  if (same && entry.db.open && !entry.db.inTransaction) return entry;
  entry.db.close();
  return undefined;
}

/** Leaves `opened` open for reuse; false (the caller closes it) when one is left already. */
function leaveIdle(opened: OpenedDatabase, options: ConnectOptions, label: string): boolean {
  if (opened.file === undefined || opened.readonly || opened.db.inTransaction) return false;
  const key = idleKey(options, label, opened.file.path);
  if (idle.has(key)) return false;
  idle.set(key, opened);
  return true;
}

/**
 * A read checks that the file is still there at most this often, in ms (a write always checks).
 * One `stat` costs 3-11 µs on a busy machine: as much as a whole `info` call.
 */
const READ_CHECK_INTERVAL_MS = 100;

interface Open<S> extends OpenedDatabase {
  tx: Runner;
  st: S;
}

/**
 * @param setup runs once on the new connection (e.g. loading an extension); a throw closes it.
 */
export function connect<S>(
  options: ConnectOptions,
  label: string,
  prepare: (db: Database) => S,
  setup?: (db: Database) => void,
): Connection<S> {
  let open: Open<S> | undefined;
  let closed = false;
  /** Once the file is found deleted or replaced, every later call fails with the same error. */
  let vanished: MemStoreError | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  const reuse = reusable(options, setup);

  const ensure = (): Open<S> => {
    if (closed) {
      throw new MemStoreError(
        `[mem/sqlite] the ${label} connection was closed before this call ran; create a new one.`,
      );
    }
    if (vanished !== undefined) throw vanished;
    if (open !== undefined) return open;
    const reused = reuse ? takeIdle(options, label) : undefined;
    if (reused !== undefined) {
      open = { ...reused, ...prepared(reused.db, prepare) };
      return open;
    }
    const opened = openDatabase(options, label);
    try {
      setup?.(opened.db);
    } catch (error) {
      if (opened.owned) opened.db.close();
      throw error;
    }
    open = { ...opened, ...prepared(opened.db, prepare) };
    return open;
  };
  const checkFile = (o: Open<S>, always: boolean): void => {
    if (o.file === undefined) return;
    const at = performance.now();
    if (!always && at - checkedAt < READ_CHECK_INTERVAL_MS) return;
    try {
      assertSameFile(o.file);
      checkedAt = at;
    } catch (error) {
      vanished = error as MemStoreError;
      throw error;
    }
  };
  const waiter = createLockWaiter(options.busyTimeoutMs, storeError);

  return {
    write: (work, committed) =>
      waiter.write(() => {
        const o = ensure();
        if (o.readonly) throw readOnlyError(options, label);
        const entry = preparedFor.get(o.db) as Prepared;
        let mark: ChangeMark | undefined;
        // Checked under the write lock, before COMMIT: a throw rolls the write back.
        const result = o.tx.immediate(() => {
          const result = work(o.st, o.db);
          checkFile(o, true);
          // Under the write lock no other connection commits: the mark is exact.
          if (committed !== undefined) mark = markOf(o.db, entry);
          return result;
        }) as ReturnType<typeof work>;
        entry.writes++;
        if (committed !== undefined) {
          committed(result, { ...(mark as ChangeMark), writes: entry.writes });
        }
        return result;
      }),
    read: (work) =>
      waiter.read(() => {
        const o = ensure();
        const result = o.tx(() => work(o.st, o.db)) as ReturnType<typeof work>;
        checkFile(o, false);
        return result;
      }),
    // Outside the lock waiter: driver errors are turned into MemStoreErrors here, as it does.
    mark: () => {
      try {
        const o = ensure();
        return markOf(o.db, preparedFor.get(o.db) as Prepared);
      } catch (error) {
        throw storeError(error);
      }
    },
    unchanged: (mark) => {
      try {
        const o = ensure();
        if (o.db !== mark.db) return false;
        const entry = preparedFor.get(o.db) as Prepared;
        if (entry.writes !== mark.writes) return false;
        checkFile(o, false);
        return markOf(o.db, entry).dataVersion === mark.dataVersion;
      } catch (error) {
        throw storeError(error);
      }
    },
    close: () => {
      if (closed) return;
      closed = true;
      if (open?.owned === true) {
        const { db, owned, readonly, file } = open;
        const kept =
          reuse &&
          vanished === undefined &&
          leaveIdle({ db, owned, readonly, file }, options, label);
        if (!kept) db.close();
      }
      open = undefined;
    },
  };
}

function prepared<S>(db: Database, prepare: (db: Database) => S): { tx: Runner; st: S } {
  let entry = preparedFor.get(db);
  if (entry === undefined) {
    const tx = db.transaction((work: () => unknown) => work()) as unknown as Runner;
    entry = { tx, statements: new Map(), writes: 0, dataVersion: undefined };
    preparedFor.set(db, entry);
  }
  let st = entry.statements.get(prepare) as S | undefined;
  if (st === undefined) {
    st = prepare(db);
    entry.statements.set(prepare, st);
  }
  return { tx: entry.tx, st };
}

function readOnlyError(options: ConnectOptions, label: string): MemStoreError {
  const why = options.readonly
    ? 'it was opened with `readonly: true`'
    : options.source.kind === 'database'
      ? 'the given connection is read-only'
      : 'this process may not write the file or its directory';
  return new MemStoreError(
    `[mem/sqlite] the database is read-only for ${label} (${why}); writes are refused. To write, open it without \`readonly\`, as a user who may write the file and its directory.`,
  );
}

/** Lets MemErrors through and turns driver errors (busy, I/O, corruption) into MemStoreError. */
function storeError(error: unknown): Error {
  if (MemError.isInstance(error)) return error as Error;
  const code = (error as { code?: unknown }).code;
  const hint =
    typeof code !== 'string'
      ? 'Check the database file and the free disk space.'
      : code.startsWith('SQLITE_BUSY')
        ? 'Another connection held the write lock longer than busyTimeoutMs; retry or raise busyTimeoutMs.'
        : code.startsWith('SQLITE_READONLY')
          ? 'The database is read-only for this process; open it with `readonly: true` to read it, or fix the permissions of the file and its directory to write.'
          : 'Check the database file and the free disk space.';
  return new MemStoreError(
    `[mem/sqlite] the database operation failed${typeof code === 'string' ? ` (${code})` : ''}: ${(error as Error).message}. ${hint}`,
    { cause: error },
  );
}
