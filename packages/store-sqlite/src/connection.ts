import { MemError, MemStoreError } from '@mem/core';
import type { Database } from 'better-sqlite3';
import { openDatabase } from './open-database.ts';
import type { CheckedSqliteStoreOptions } from './sqlite-store-options.ts';

/** One better-sqlite3 connection with its prepared statements `S` and transaction wrappers. */
export interface Connection<S> {
  db: Database;
  /** True when the store opened the connection (and so closes it). */
  owned: boolean;
  /** Runs `work` in a BEGIN IMMEDIATE transaction: takes the write lock first, so writers serialize. */
  write<R>(work: (st: S) => R): R;
  /** Runs `work` in a deferred (read) transaction: one consistent snapshot. */
  read<R>(work: (st: S) => R): R;
}

type Runner = ((work: () => unknown) => unknown) & { immediate: (work: () => unknown) => unknown };

interface Prepared {
  tx: Runner;
  statements: Map<(db: Database) => unknown, unknown>;
}

/** Statements and transaction wrappers are prepared once per Database, shared by its users. */
const preparedFor = new WeakMap<Database, Prepared>();

export type ConnectOptions = Pick<
  CheckedSqliteStoreOptions,
  'source' | 'busyTimeoutMs' | 'synchronous'
>;

export function connect<S>(
  options: ConnectOptions,
  label: string,
  prepare: (db: Database) => S,
): Connection<S> {
  const { db, owned } = openDatabase(options, label);
  let entry = preparedFor.get(db);
  if (entry === undefined) {
    const tx = db.transaction((work: () => unknown) => work()) as unknown as Runner;
    entry = { tx, statements: new Map() };
    preparedFor.set(db, entry);
  }
  let st = entry.statements.get(prepare) as S | undefined;
  if (st === undefined) {
    st = prepare(db);
    entry.statements.set(prepare, st);
  }
  const { tx } = entry;
  const statements = st;
  return {
    db,
    owned,
    write: (work) => guard(() => tx.immediate(() => work(statements))) as ReturnType<typeof work>,
    read: (work) => guard(() => tx(() => work(statements))) as ReturnType<typeof work>,
  };
}

/** Lets MemErrors through and turns driver errors (busy, I/O, corruption) into MemStoreError. */
function guard<R>(work: () => R): R {
  try {
    return work();
  } catch (error) {
    if (MemError.isInstance(error)) throw error;
    const code = (error as { code?: unknown }).code;
    const hint =
      code === 'SQLITE_BUSY'
        ? 'Another connection held the write lock longer than busyTimeoutMs; retry or raise busyTimeoutMs.'
        : 'Check the database file and the free disk space.';
    throw new MemStoreError(
      `[mem/sqlite] the database operation failed${typeof code === 'string' ? ` (${code})` : ''}: ${(error as Error).message}. ${hint}`,
      { cause: error },
    );
  }
}
