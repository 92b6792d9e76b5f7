import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@mem/core';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from './index.ts';

/*
 * A catch-up read (`read(id, { afterSeq })`, what the engine runs before each `context()`) is
 * answered from what the store last saw when nothing was committed since. These tests change the
 * file in every way a reader must notice and check the next catch-up read sees it.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mem-catch-up-'));
  dirs.push(dir);
  return join(dir, 'mem.db');
}

let n = 0;
const turn = (...texts: string[]): Array<Message & { tokenCount: number }> =>
  texts.map((content, i) => ({
    id: `m${++n}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    content,
    createdAt: 1_700_000_000_000 + n,
    tokenCount: 5,
  }));
const texts = (read: { messages: Array<{ content: unknown }> }) =>
  read.messages.map((m) => m.content);

describe('catch-up reads see every change made since the last one', () => {
  it('an append by another connection to the file', async () => {
    const path = dbPath();
    const mine = createSqliteStore({ path });
    const theirs = createSqliteStore({ path });
    const first = await mine.append('s', turn('q1', 'a1'), { idempotencyKey: 'k1' });
    expect(texts(await mine.read('s', { afterSeq: first.lastSeq }))).toEqual([]);
    await theirs.append('s', turn('q2', 'a2'), { idempotencyKey: 'k2' });
    const caught = await mine.read('s', { afterSeq: first.lastSeq });
    expect(texts(caught)).toEqual(['q2', 'a2']);
    expect(caught.version).toBe(first.version + 1);
    await mine.close();
    await theirs.close();
  });

  it('an append by another store on the same connection object', async () => {
    const db = new BetterSqlite3(dbPath());
    const mine = createSqliteStore({ database: db });
    const theirs = createSqliteStore({ database: db });
    const first = await mine.append('s', turn('q1', 'a1'), { idempotencyKey: 'k1' });
    expect(texts(await mine.read('s', { afterSeq: first.lastSeq }))).toEqual([]);
    await theirs.append('s', turn('q2'), { idempotencyKey: 'k2' });
    expect(texts(await mine.read('s', { afterSeq: first.lastSeq }))).toEqual(['q2']);
    await mine.close();
    await theirs.close();
    db.close();
  });

  it('a write by another process', async () => {
    const path = dbPath();
    const mine = createSqliteStore({ path });
    const first = await mine.append('s', turn('q1', 'a1'), { idempotencyKey: 'k1' });
    expect(texts(await mine.read('s', { afterSeq: first.lastSeq }))).toEqual([]);
    // Another process's commit, through SQLite alone (no store code): the session row moves on.
    execFileSync(process.execPath, [
      '-e',
      `const db = new (require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))}))(${JSON.stringify(path)});
       db.prepare('UPDATE mem_sessions SET version = version + 1, epoch = epoch + 1').run();
       db.close();`,
    ]);
    const caught = await mine.read('s', { afterSeq: first.lastSeq });
    expect(caught.epoch).toBe(first.epoch + 1);
    await mine.close();
  });

  it('a pop and a clear by the same store', async () => {
    const store = createSqliteStore({ path: dbPath() });
    const first = await store.append('s', turn('q1', 'a1', 'q2', 'a2'), { idempotencyKey: 'k' });
    const seen = await store.read('s', { afterSeq: first.lastSeq });
    await store.pop('s');
    const afterPop = await store.read('s', { afterSeq: first.lastSeq });
    expect(afterPop.epoch).toBe(seen.epoch + 1);
    expect(afterPop.version).toBe(seen.version + 1);
    await store.clear('s');
    const afterClear = await store.read('s', { afterSeq: first.lastSeq });
    expect(afterClear.epoch).toBeGreaterThan(afterPop.epoch);
    expect(afterClear.messages).toEqual([]);
    await store.close();
  });

  it('a session that expired (TTL) since', async () => {
    let clock = 1_700_000_000_000;
    const store = createSqliteStore({ path: dbPath(), ttlMs: 1_000, now: () => clock });
    const first = await store.append('s', turn('q1'), { idempotencyKey: 'k' });
    expect((await store.read('s', { afterSeq: first.lastSeq })).version).toBe(first.version);
    clock += 1_000;
    const expired = await store.read('s', { afterSeq: first.lastSeq });
    expect(expired).toEqual({ version: 0, epoch: 0, messages: [] });
    await store.close();
  });

  it('a read with a range is never answered from what was seen', async () => {
    const store = createSqliteStore({ path: dbPath() });
    const first = await store.append('s', turn('q1', 'a1'), { idempotencyKey: 'k' });
    expect(texts(await store.read('s', { afterSeq: 0 }))).toEqual(['q1', 'a1']);
    expect(texts(await store.read('s', { afterSeq: first.firstSeq - 1, limit: 1 }))).toEqual([
      'q1',
    ]);
    expect(texts(await store.read('s', { from: 'end', limit: 1 }))).toEqual(['a1']);
    await store.close();
  });
});
