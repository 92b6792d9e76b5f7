import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAllWorkers, spawnWorker } from '@mem/store-test-suite/processes';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from './sqlite-store.ts';

/*
 * Issue 14: a stateless server opens a store per request and closes it. What a request appended
 * before its close returned must be there for the next connection, even when the process is
 * SIGKILLed right after the close (no exit handler, no later checkpoint) — whether the close
 * checkpointed the WAL (last connection) or left it to another connection (one still open).
 */
const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-close-'));
let files = 0;
afterEach(killAllWorkers);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REQUESTS = 5;
const writer = new URL('./__fixtures__/per-request-writer.ts', import.meta.url);

async function migratedFile(): Promise<string> {
  const path = join(dir, `close-${++files}.db`);
  const store = createSqliteStore({ path });
  await store.info('s');
  await store.close();
  return path;
}

async function killedAfterClose(path: string, keep = false): Promise<void> {
  const worker = spawnWorker(writer, [path, String(REQUESTS), ...(keep ? ['keep'] : [])]);
  await worker.waitForLine((line) => line === 'closed');
  await worker.kill();
  const { signal } = await worker.exited;
  expect(signal).toBe('SIGKILL');
}

async function storedIds(path: string): Promise<string[]> {
  const store = createSqliteStore({ path });
  try {
    return (await store.read('s')).messages.map((m) => m.id);
  } finally {
    await store.close();
  }
}

const expectedIds = Array.from({ length: REQUESTS }, (_, i) => [`u${i}`, `a${i}`]).flat();

describe('createSqliteStore: a store closed per request, then the process SIGKILLed', () => {
  it('keeps every acknowledged turn when each close was the last connection (it checkpoints)', async () => {
    const path = await migratedFile();
    await killedAfterClose(path);
    expect(await storedIds(path)).toEqual(expectedIds);
  });

  it('keeps every acknowledged turn when another connection stays open (the close leaves the WAL)', async () => {
    const path = await migratedFile();
    // Another connection holds the file open: the writer's closes are not the last, so they
    // leave the appended frames in the WAL for a later checkpoint.
    const other = new BetterSqlite3(path);
    try {
      other.pragma('user_version', { simple: true });
      await killedAfterClose(path);
      expect(existsSync(`${path}-wal`)).toBe(true);
      expect(await storedIds(path)).toEqual(expectedIds);
    } finally {
      other.close();
    }
    // The last close checkpointed: a connection opened now reads the turns from the file alone.
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(await storedIds(path)).toEqual(expectedIds);
  });

  it('keeps every acknowledged turn with reuseConnection (the process kept the file open)', async () => {
    const path = await migratedFile();
    await killedAfterClose(path, true);
    // Nothing checkpointed: the turns are in the WAL the killed process left.
    expect(existsSync(`${path}-wal`)).toBe(true);
    expect(await storedIds(path)).toEqual(expectedIds);
  });
});

const turn = (id: string) => [
  { id, role: 'user' as const, content: `hi ${id}`, createdAt: 1, tokenCount: 2 },
];

describe('createSqliteStore: reuseConnection', () => {
  it('close leaves the connection and the WAL; the next stores read and extend what was appended', async () => {
    const path = await migratedFile();
    for (let i = 0; i < 3; i++) {
      const store = createSqliteStore({ path, reuseConnection: true });
      expect((await store.read('s')).messages).toHaveLength(i);
      await store.append('s', turn(`m${i}`), { idempotencyKey: `k${i}` });
      await store.close();
      expect(existsSync(`${path}-wal`)).toBe(true);
    }
    expect(await storedIds(path)).toEqual(['m0', 'm1', 'm2']);
  });

  it('two stores open at once each get a connection, and both closes keep what they wrote', async () => {
    const path = await migratedFile();
    const a = createSqliteStore({ path, reuseConnection: true });
    const b = createSqliteStore({ path, reuseConnection: true });
    await a.append('s', turn('a'), { idempotencyKey: 'a' });
    await b.append('s', turn('b'), { idempotencyKey: 'b' });
    await a.close();
    await b.close();
    const c = createSqliteStore({ path, reuseConnection: true });
    expect((await c.read('s')).messages.map((m) => m.id)).toEqual(['a', 'b']);
    await c.close();
  });

  it('a file deleted at the path is not read through the connection left open on it', async () => {
    const path = await migratedFile();
    const old = createSqliteStore({ path, reuseConnection: true });
    await old.append('s', turn('old'), { idempotencyKey: 'old' });
    await old.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    const fresh = createSqliteStore({ path, reuseConnection: true });
    expect((await fresh.read('s')).messages).toEqual([]);
    await fresh.append('s', turn('new'), { idempotencyKey: 'new' });
    await fresh.close();
    expect(await storedIds(path)).toEqual(['new']);
  });

  it('off (the default): the last close checkpoints and deletes the WAL', async () => {
    const path = join(dir, `default-${++files}.db`);
    const store = createSqliteStore({ path });
    await store.append('s', turn('m'), { idempotencyKey: 'k' });
    expect(existsSync(`${path}-wal`)).toBe(true);
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('rejects a value that is not a boolean, naming the option', () => {
    expect(() =>
      createSqliteStore({ path: join(dir, 'x.db'), reuseConnection: 'yes' as unknown as boolean }),
    ).toThrow(/reuseConnection/);
  });
});
