import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { MemError } from '@mem/core';
import type { CountedMessage, Store } from '@mem/core/backend';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.ts';
import { createSqliteStore } from './sqlite-store.ts';

/*
 * Issue 10, case 15 (a): a database the process may only read (the `readonly` option, or a file
 * and directory it may not write) opens for reads, is never migrated or switched to WAL, and
 * refuses writes with a clear MemStoreError.
 *
 * root ignores file permissions: for root a chmod'ed file is writable, so the store opens it
 * read-write. The test of permissions therefore runs its reader as `nobody` when the tests run
 * as root, and the `readonly` option is tested on its own.
 */
const root = mkdtempSync(join(tmpdir(), 'mem-sqlite-ro-'));
chmodSync(root, 0o755); // lets `nobody` reach the directories below
let dirs = 0;
const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
afterAll(() => {
  chmodRecursive(root);
  rmSync(root, { recursive: true, force: true });
});

function chmodRecursive(path: string): void {
  chmodSync(path, 0o755);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) chmodRecursive(child);
    else chmodSync(child, 0o644);
  }
}

const messages = (ids: readonly string[]): CountedMessage[] =>
  ids.map((id) => ({
    id,
    role: 'user',
    content: `message ${id}`,
    createdAt: 1_700_000_000_000,
    tokenCount: 2,
  }));

/** A directory holding a database with session 's' of messages a, b (closed: no -wal/-shm). */
async function writtenDatabase(): Promise<{ dir: string; path: string }> {
  const dir = join(root, `d${++dirs}`);
  mkdirSync(dir, { mode: 0o755 });
  const path = join(dir, 'mem.db');
  const store = createSqliteStore({ path });
  await store.append('s', messages(['a', 'b']), { idempotencyKey: 'k' });
  await store.close();
  return { dir, path };
}

function makeReadOnly(dir: string, path: string): void {
  chmodSync(path, 0o444);
  chmodSync(dir, 0o555);
}

async function rejection(promise: Promise<unknown>): Promise<MemError> {
  const error = await promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
  expect(MemError.isInstance(error)).toBe(true);
  return error as MemError;
}

describe('createSqliteStore: read-only databases', () => {
  it('readonly: true reads without migrating or changing the journal mode, and refuses writes', async () => {
    const { dir, path } = await writtenDatabase();
    // A file in rollback-journal mode: opening it read-write would switch it to WAL.
    const raw = new Database(path);
    raw.pragma('journal_mode = DELETE');
    raw.close();
    makeReadOnly(dir, path);
    const before = readFileSync(path);
    const store = createSqliteStore({ path, readonly: true });
    opened.push(store);
    expect((await store.read('s')).messages.map((m) => m.id)).toStrictEqual(['a', 'b']);
    expect(await store.info('s')).toMatchObject({ messageCount: 2 });
    expect((await store.export('s'))?.messages).toHaveLength(2);
    const error = await rejection(store.append('s', messages(['c']), { idempotencyKey: 'k2' }));
    expect(error.code).toBe('MEM_STORE');
    expect(error.message).toMatch(/^\[mem\/sqlite\] .*read-only.*readonly/);
    await rejection(store.clear('s'));
    await store.close();
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dir)).toStrictEqual(['mem.db']);
  });

  it('readonly: true refuses a file of an older schema instead of migrating it', async () => {
    const dir = join(root, `d${++dirs}`);
    mkdirSync(dir);
    const path = join(dir, 'old.db');
    const raw = new Database(path);
    raw.exec(MIGRATIONS[0] as string);
    raw.pragma('user_version = 1');
    raw.close();
    const store = createSqliteStore({ path, readonly: true });
    opened.push(store);
    const error = await rejection(store.read('s'));
    expect(error.message).toMatch(/schema version 1 .*older.*without `readonly`/);
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(1);
    check.close();
    expect(SCHEMA_VERSION).toBeGreaterThan(1);
  });

  it('a process that may not write the file or its directory reads it without options, and a write says why it fails', async () => {
    const { dir, path } = await writtenDatabase();
    makeReadOnly(dir, path);
    const asRoot = process.getuid?.() === 0;
    const tsx = pathToFileURL(
      createRequire(join(process.cwd(), 'package.json')).resolve('tsx'),
    ).href;
    const script = fileURLToPath(new URL('./__fixtures__/read-only-reader.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@mem/source', '--import', tsx, script, path, 's'],
      { cwd: process.cwd(), ...(asRoot ? { uid: 65534, gid: 65534 } : {}) },
    );
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('read ["a","b"]');
    expect(lines[1]).toMatch(/^append-error MEM_STORE \[mem\/sqlite\] .*read-only/);
    expect(readdirSync(dir)).toStrictEqual(['mem.db']);
  });
});
