import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MemStoreError } from '@mem/core';

/*
 * The database file on disk. SQLite keeps using the file it opened even after the path stops
 * naming it (deleted, or another file renamed over it): every later write would be acknowledged
 * into a file nobody can open again. The store remembers which file it opened (device and inode)
 * and checks that the path still names it.
 */

/** Which file a path named when it was opened. */
export interface FileIdentity {
  path: string;
  dev: number;
  ino: number;
}

/** The file `path` names now (a relative path is resolved now, as SQLite resolved it). */
export function identify(path: string): FileIdentity | undefined {
  const absolute = resolve(path);
  const stat = statSync(absolute, { throwIfNoEntry: false });
  return stat === undefined ? undefined : { path: absolute, dev: stat.dev, ino: stat.ino };
}

/**
 * @throws MemStoreError when `file.path` no longer names the file that was opened. One `stat`
 * (a few µs, see the README's note on costs).
 */
export function assertSameFile(file: FileIdentity): void {
  let now: FileIdentity | undefined;
  let cause: unknown;
  try {
    now = identify(file.path);
  } catch (error) {
    cause = error;
  }
  if (now !== undefined && now.dev === file.dev && now.ino === file.ino) return;
  throw new MemStoreError(
    `[mem/sqlite] the database file ${JSON.stringify(file.path)} was deleted or replaced after it was opened; nothing more is read from or written to the old file. Create a new store to open the file now at that path (or restore the file).`,
    cause === undefined ? {} : { cause },
  );
}

/**
 * True when this process may not change the database: the file is not writable, or its
 * directory is not (so SQLite cannot create the `-wal` file it writes through) and no writable
 * `-wal` file exists. root may write anything, so for root this is false.
 */
export function cannotWrite(path: string): boolean {
  if (!writable(path)) return true;
  return !writable(dirname(path)) && !writable(`${path}-wal`);
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
