import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemError } from '@mem/core';
import type { CountedMessage, Store } from '@mem/core/backend';
import { killAllWorkers, sleep, spawnWorker, type Worker } from '@mem/store-test-suite/processes';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from './sqlite-store.ts';

/*
 * Issue 10, case 8: while another OS process holds SQLite's write lock, a write waits for it
 * asynchronously (up to busyTimeoutMs in all), so timers and other calls keep running.
 */
const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-lock-'));
let files = 0;
const opened: Store[] = [];
afterEach(async () => {
  await killAllWorkers();
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const message = (id: string): CountedMessage => ({
  id,
  role: 'user',
  content: `message ${id}`,
  createdAt: 1_700_000_000_000,
  tokenCount: 2,
});

/** A migrated file, a store on it, and a second process holding its write lock. */
async function lockedFile(busyTimeoutMs: number): Promise<{ store: Store; holder: Worker }> {
  const path = join(dir, `locked-${++files}.db`);
  const store = createSqliteStore({ path, busyTimeoutMs });
  opened.push(store);
  await store.info('s'); // opens and migrates the file before the other process locks it
  const holder = spawnWorker(new URL('./__fixtures__/lock-holder.ts', import.meta.url), [path]);
  await holder.waitForLine((line) => line === 'locked');
  return { store, holder };
}

/** Counts the ticks of a 50 ms interval until `stop()`. */
function ticker() {
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return ticks;
    },
  };
}

describe('createSqliteStore: waiting for another process’s write lock', () => {
  it('keeps a 50 ms timer firing while an append waits, and completes once the lock is released', async () => {
    const { store, holder } = await lockedFile(10_000);
    const ticks = ticker();
    const started = performance.now();
    const release = setTimeout(() => holder.send('release'), 1_000);
    const result = await store.append('s', [message('m1')], { idempotencyKey: 'k1' });
    const waited = performance.now() - started;
    const fired = ticks.stop();
    clearTimeout(release);
    await holder.waitForLine((line) => line === 'released');
    expect(result).toMatchObject({ firstSeq: 1, lastSeq: 1, duplicate: false });
    expect(waited).toBeGreaterThanOrEqual(900);
    // ~20 ticks in 1 s; a frozen event loop fires none.
    expect(fired).toBeGreaterThanOrEqual(10);
    expect((await store.read('s')).messages.map((m) => m.id)).toStrictEqual(['m1']);
  });

  it('fails with MemStoreError (SQLITE_BUSY) after busyTimeoutMs, timers firing all along', async () => {
    const { store, holder } = await lockedFile(800);
    const ticks = ticker();
    const started = performance.now();
    const error = await store.append('s', [message('m1')], { idempotencyKey: 'k1' }).then(
      () => expect.fail('expected a rejection'),
      (e: unknown) => e,
    );
    const waited = performance.now() - started;
    const fired = ticks.stop();
    expect(MemError.isInstance(error)).toBe(true);
    expect((error as MemError).code).toBe('MEM_STORE');
    expect((error as Error).message).toMatch(/SQLITE_BUSY.*busyTimeoutMs/);
    expect(waited).toBeGreaterThanOrEqual(750);
    expect(waited).toBeLessThan(2_500);
    expect(fired).toBeGreaterThanOrEqual(8);
    holder.send('release');
    await holder.waitForLine((line) => line === 'released');
    // Nothing was applied: the failed append can be retried with its key.
    expect(await store.info('s')).toBeNull();
    const retried = await store.append('s', [message('m1')], { idempotencyKey: 'k1' });
    expect(retried.duplicate).toBe(false);
  });

  it('applies writes queued behind the lock once each, in call order, while reads go on', async () => {
    const { store, holder } = await lockedFile(10_000);
    const pending = [
      store.append('s', [message('a')], { idempotencyKey: 'ka' }),
      store.append('s', [message('b')], { idempotencyKey: 'kb' }),
      store.append('s', [message('a')], { idempotencyKey: 'ka' }), // a retry of the first
      store.append('s', [message('c')], { idempotencyKey: 'kc' }),
    ];
    // A read does not need the write lock (WAL): it answers while the writes wait.
    expect(await store.info('s')).toBeNull();
    await sleep(300);
    holder.send('release');
    const results = await Promise.all(pending);
    expect(results.map((r) => [r.firstSeq, r.duplicate])).toStrictEqual([
      [1, false],
      [2, false],
      [1, true],
      [3, false],
    ]);
    expect((await store.read('s')).messages.map((m) => m.id)).toStrictEqual(['a', 'b', 'c']);
  });
});
