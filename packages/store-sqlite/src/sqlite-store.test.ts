import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { MemError } from '@mem/core';
import type { CountedMessage, Store } from '@mem/core/backend';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from './migrations.ts';
import { createSqliteStore } from './sqlite-store.ts';
import type { SqliteStoreOptions } from './sqlite-store-options.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-own-'));
let files = 0;
const freshFile = () => join(dir, `store-${++files}.db`);
const opened: Store[] = [];
const open = (options: SqliteStoreOptions) => {
  const store = createSqliteStore(options);
  opened.push(store);
  return store;
};

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let ids = 0;
function messages(count: number, label: string): CountedMessage[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${label}-${++ids}`,
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: `${label} ${i + 1}`,
    createdAt: 1_700_000_000_000 + ids,
    tokenCount: 3,
  }));
}
const append = (store: Store, sessionId: string, batch: CountedMessage[]) =>
  store.append(sessionId, batch, { idempotencyKey: `key-${++ids}` });

async function rejection(promise: Promise<unknown>): Promise<MemError> {
  const error = await promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
  expect(MemError.isInstance(error)).toBe(true);
  return error as MemError;
}

describe('createSqliteStore: files and connections', () => {
  it('turns WAL on for a file and migrates it to the current schema version', async () => {
    const path = freshFile();
    await append(open({ path }), 's', messages(1, 'a'));
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      raw.close();
    }
  });

  it('connects lazily: a bad path fails on first use with MemStoreError, not at creation', async () => {
    const store = open({ path: join(dir, 'missing-dir', 'x.db') });
    const error = await rejection(store.info('s'));
    expect(error.code).toBe('MEM_STORE');
    expect(error.message).toMatch(/^\[mem\/sqlite\]/);
  });

  it('applies migrations once: opening the same file again (and concurrently) is a no-op', async () => {
    const path = freshFile();
    const [one, two] = [open({ path }), open({ path })];
    await Promise.all([append(one, 's', messages(1, 'a')), append(two, 't', messages(1, 'b'))]);
    const three = open({ path });
    expect((await three.list()).sessionIds).toStrictEqual(['s', 't']);
    const raw = new Database(path);
    try {
      expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      raw.close();
    }
  });

  it('refuses a file written by a newer schema version', async () => {
    const path = freshFile();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const error = await rejection(open({ path }).info('s'));
    expect(error.code).toBe('MEM_STORE');
    expect(error.message).toMatch(/newer/);
  });

  it('keeps data across close and reopen', async () => {
    const path = freshFile();
    const first = createSqliteStore({ path, namespace: 'tenant' });
    const batch = messages(3, 'kept');
    await append(first, 'session', batch);
    await first.close();
    const again = open({ path, namespace: 'tenant' });
    expect((await again.read('session')).messages.map((m) => m.id)).toStrictEqual(
      batch.map((m) => m.id),
    );
    expect(await open({ path, namespace: 'other' }).info('session')).toBeNull();
  });

  it('lets a second connection to the same file see every write at once', async () => {
    const path = freshFile();
    const [writer, reader] = [open({ path }), open({ path })];
    await append(writer, 'live', messages(2, 'w'));
    expect((await reader.info('live'))?.messageCount).toBe(2);
    await writer.clear('live');
    expect(await reader.info('live')).toBeNull();
  });

  it('leaves a database given by the caller open on close()', async () => {
    const database = new Database(':memory:');
    const store = createSqliteStore({ database });
    await append(store, 's', messages(1, 'x'));
    await store.close();
    expect(database.open).toBe(true);
    expect(database.prepare('SELECT count(*) AS n FROM mem_messages').get()).toStrictEqual({
      n: 1,
    });
    database.close();
  });

  it('declares durability and multi-process safety only for files', () => {
    expect(open({ path: freshFile() }).capabilities).toStrictEqual({
      ttl: true,
      multiProcess: true,
      durable: true,
    });
    expect(open({ path: ':memory:' }).capabilities).toMatchObject({ durable: false });
  });

  it('rejects bad options with one MemConfigError listing every problem', () => {
    const bad = {
      path: 'x.db',
      database: {},
      namespace: 'no spaces',
      ttlMs: -1,
      busyTimeoutMs: Number.NaN,
      synchronous: 'OFF',
    } as unknown as SqliteStoreOptions;
    let error: unknown;
    try {
      createSqliteStore(bad);
    } catch (e) {
      error = e;
    }
    expect(MemError.isInstance(error)).toBe(true);
    const paths = (error as { issues: { path: string }[] }).issues.map((i) => i.path);
    expect(paths).toStrictEqual(['namespace', 'path', 'ttlMs', 'busyTimeoutMs', 'synchronous']);
  });
});

describe('createSqliteStore: hostile input', () => {
  const hostile = [
    "'; DROP TABLE mem_messages; --",
    '"quoted"',
    "it's",
    '%',
    '%_%',
    '*',
    'a*b',
    'x OR 1=1',
  ];

  it('stores hostile session ids exactly, isolated, and never as SQL', async () => {
    const path = freshFile();
    const store = open({ path });
    for (const id of hostile) await append(store, id, messages(1, 'h'));
    await append(store, 'a', messages(2, 'plain'));
    const listed = (await store.list()).sessionIds;
    expect([...listed].sort()).toStrictEqual([...hostile, 'a'].sort());
    for (const id of hostile) {
      expect((await store.info(id))?.messageCount).toBe(1);
      expect((await store.export(id))?.sessionId).toBe(id);
    }
    expect((await store.info('a'))?.messageCount).toBe(2);
    expect(await store.clear('%')).toBe(true);
    expect(await store.info('%_%')).not.toBeNull();
    const raw = new Database(path, { readonly: true });
    try {
      const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
      expect(tables.map((t) => (t as { name: string }).name)).toContain('mem_messages');
    } finally {
      raw.close();
    }
  });

  it('rejects NUL and 10 kB session ids before any SQL runs', async () => {
    const database = new Database(':memory:');
    const store = open({ database });
    for (const bad of ['a\u0000b', 'x'.repeat(10_000)]) {
      const error = await rejection(append(store, bad, messages(1, 'n')));
      expect(error.code).toBe('MEM_VALIDATION');
      expect((error as { field?: string }).field).toBe('sessionId');
    }
    // The store never even connected: nothing was created in the database.
    expect(database.pragma('user_version', { simple: true })).toBe(0);
    database.close();
  });
});

describe('createSqliteStore: concurrency and cost', () => {
  it('loses nothing when two connections append to one session at once', async () => {
    const path = freshFile();
    const writers = [open({ path }), open({ path })];
    const perWriter = 100;
    await Promise.all(
      writers.map((store, w) =>
        Promise.all(
          Array.from({ length: perWriter }, (_, i) =>
            store.append('shared', messages(2, `w${w}-${i}`), {
              idempotencyKey: `w${w}-${i}`,
            }),
          ),
        ),
      ),
    );
    const { messages: all, version } = await writers[0]!.read('shared');
    expect(all).toHaveLength(2 * perWriter * 2);
    expect(version).toBe(2 * perWriter);
    expect(all.map((m) => m.seq)).toStrictEqual(all.map((_, i) => i + 1));
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    for (const w of [0, 1]) {
      const mine = all.filter((m) => m.id.startsWith(`w${w}-`)).map((m) => m.content);
      const expected = Array.from({ length: perWriter }, (_, i) => [
        `w${w}-${i} 1`,
        `w${w}-${i} 2`,
      ]).flat();
      expect(mine).toStrictEqual(expected);
    }
  });

  it('loses nothing when four OS processes append to one session of one file at once', async () => {
    const path = freshFile();
    // No store has opened the file yet: the processes also race to create it and migrate it.
    const worker = fileURLToPath(new URL('./__fixtures__/append-worker.ts', import.meta.url));
    const [writers, turns] = [4, 100];
    await Promise.all(
      Array.from({ length: writers }, (_, w) =>
        promisify(execFile)(
          process.execPath,
          ['--conditions=@mem/source', '--import', 'tsx', worker, path, `p${w}`, String(turns)],
          { cwd: fileURLToPath(new URL('..', import.meta.url)) },
        ),
      ),
    );
    const { messages: all, version } = await open({ path }).read('shared');
    expect(all).toHaveLength(writers * turns * 2);
    expect(version).toBe(writers * turns);
    expect(all.map((m) => m.seq)).toStrictEqual(all.map((_, i) => i + 1));
    for (let w = 0; w < writers; w++) {
      const mine = all.filter((m) => m.id.startsWith(`p${w}-`)).map((m) => m.id);
      const expected = Array.from({ length: turns }, (_, i) => [`p${w}-${i}-0`, `p${w}-${i}-1`]);
      expect(mine).toStrictEqual(expected.flat());
    }
    // Turns are never split: each user message is directly followed by its assistant reply.
    for (let i = 0; i < all.length; i += 2) {
      expect(all[i + 1]?.id).toBe(all[i]?.id.replace(/-0$/, '-1'));
    }
  });

  it('reads the tail through the (session, seq) key, not the whole session', () => {
    const database = new Database(':memory:');
    const store = open({ database });
    return append(store, 's', messages(1, 't')).then(() => {
      const plan = database
        .prepare(
          `EXPLAIN QUERY PLAN SELECT seq, id, token_count, json FROM mem_messages
           WHERE session = ? AND seq > ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
        )
        .all(1, 0, 10, 5) as { detail: string }[];
      const detail = plan.map((p) => p.detail).join('\n');
      expect(detail).toMatch(
        /SEARCH mem_messages USING INDEX mem_messages_seq \(session=\? AND seq>\? AND seq<\?\)/,
      );
      expect(detail).not.toMatch(/TEMP B-TREE/);
      database.close();
    });
  });
});
