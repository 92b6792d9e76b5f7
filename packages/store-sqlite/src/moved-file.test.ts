import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemError } from '@mem/core';
import type { CountedMessage, Store } from '@mem/core/backend';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from './sqlite-store.ts';

/*
 * Issue 10, case 15 (c): a database file deleted or replaced while a store has it open. SQLite
 * keeps writing into the unlinked file, so every append would be acknowledged and lost; the
 * store notices that the path no longer names the file it opened and fails with MemStoreError.
 */
const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-moved-'));
let files = 0;
const opened: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const batch = (id: string): CountedMessage[] => [
  { id, role: 'user', content: `message ${id}`, createdAt: 1_700_000_000_000, tokenCount: 2 },
];

async function openedStore(): Promise<{ path: string; store: Store }> {
  const path = join(dir, `moved-${++files}.db`);
  const store = createSqliteStore({ path });
  opened.push(store);
  await store.append('s', batch('a'), { idempotencyKey: 'a' });
  return { path, store };
}

async function vanished(promise: Promise<unknown>): Promise<MemError> {
  const error = await promise.then(
    (value) => expect.fail(`expected a rejection, got ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  expect(MemError.isInstance(error)).toBe(true);
  expect((error as MemError).code).toBe('MEM_STORE');
  expect((error as Error).message).toMatch(
    /^\[mem\/sqlite\] the database file .* deleted or replaced/,
  );
  return error as MemError;
}

describe('createSqliteStore: the database file deleted or replaced while open', () => {
  it('refuses appends (and reads) once the file is deleted, instead of acknowledging them', async () => {
    const { path, store } = await openedStore();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    await vanished(store.append('s', batch('b'), { idempotencyKey: 'b' }));
    await vanished(store.read('s'));
    // It stays refused; a new store creates a fresh file at the path.
    await vanished(store.append('s', batch('c'), { idempotencyKey: 'c' }));
    const fresh = createSqliteStore({ path });
    opened.push(fresh);
    expect(await fresh.info('s')).toBeNull();
  });

  it('refuses appends once another file is renamed over the path, and leaves that file alone', async () => {
    const { path, store } = await openedStore();
    const other = join(dir, `other-${files}.db`);
    const otherStore = createSqliteStore({ path: other });
    await otherStore.append('s', batch('x'), { idempotencyKey: 'x' });
    await otherStore.close();
    renameSync(other, path);
    const replacement = readFileSync(path);
    const walBytes = statSync(`${path}-wal`).size;
    await vanished(store.append('s', batch('b'), { idempotencyKey: 'b' }));
    await vanished(store.info('s'));
    // The refused append wrote nothing: not to the file now at the path, not to the WAL.
    expect(readFileSync(path).equals(replacement)).toBe(true);
    expect(statSync(`${path}-wal`).size).toBe(walBytes);
  });

  it('also watches a file opened by the caller (the database option)', async () => {
    const path = join(dir, `given-${++files}.db`);
    const db = new Database(path);
    opened.push(db);
    const store = createSqliteStore({ database: db });
    await store.append('s', batch('a'), { idempotencyKey: 'a' });
    unlinkSync(path);
    await vanished(store.append('s', batch('b'), { idempotencyKey: 'b' }));
    await store.close();
  });
});
