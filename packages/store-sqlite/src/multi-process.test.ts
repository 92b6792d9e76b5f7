import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryEngine } from '@mem/core';
import { parseSessionSnapshot } from '@mem/core/backend';
import {
  checkSnapshotAccounts,
  expectCleanExit,
  killAllWorkers,
  spawnWorker,
  type Worker,
  wholeTurns,
  writerIndexes,
} from '@mem/store-test-suite/processes';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from './sqlite-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-multi-'));
afterAll(async () => {
  await killAllWorkers();
  rmSync(dir, { recursive: true, force: true });
});

const WRITERS = 8;
const TURNS = 500;

describe('eight OS processes on one SQLite file, with a ninth compacting', () => {
  it('keeps all 4,000 turns exactly once, whole and in each writer order', async () => {
    const path = join(dir, 'shared.db');
    const sessionId = 'shared';
    // One store opens the file first, so the workers do not all race to migrate it.
    const store = createSqliteStore({ path, busyTimeoutMs: 120_000 });
    await store.info(sessionId);
    const writers: Worker[] = Array.from({ length: WRITERS }, (_, w) =>
      spawnWorker(new URL('./__fixtures__/turn-writer.ts', import.meta.url), [
        path,
        sessionId,
        `w${w}`,
        '0',
        String(TURNS),
      ]),
    );
    const compactor = spawnWorker(new URL('./__fixtures__/compaction-loop.ts', import.meta.url), [
      path,
      sessionId,
      '100',
      '5',
    ]);
    const all = [...writers, compactor];
    const spawned = performance.now();
    await Promise.all(all.map((worker) => worker.waitForLine((line) => line === 'ready')));
    const started = performance.now();
    for (const worker of all) worker.send('go');
    await Promise.all(writers.map(expectCleanExit));
    const writing = performance.now() - started;
    compactor.send('stop');
    const result = JSON.parse(
      (await compactor.waitForLine((line) => line.startsWith('result '))).slice(7),
    ) as { attempts: number; commits: number };
    await expectCleanExit(compactor);
    console.log(
      `[sqlite multi-process] ${WRITERS}x${TURNS} turns in ${Math.round(writing)} ms, ` +
        `${result.commits}/${result.attempts} compactions committed`,
    );

    const checking = performance.now();
    const engine = createMemoryEngine({ profile: {}, store });
    const history = await engine.session(sessionId).history();
    expect(history).toHaveLength(WRITERS * TURNS * 4);
    const turnIds = wholeTurns(history);
    expect(new Set(turnIds).size).toBe(WRITERS * TURNS);
    for (let w = 0; w < WRITERS; w++) {
      expect(writerIndexes(turnIds, `w${w}`)).toStrictEqual(
        Array.from({ length: TURNS }, (_, i) => i),
      );
    }
    expect(result.commits).toBeGreaterThanOrEqual(1);
    const snapshot = parseSessionSnapshot(await store.export(sessionId));
    expect(snapshot.summaries).toHaveLength(result.commits);
    checkSnapshotAccounts(snapshot, WRITERS * TURNS);
    console.log(
      `[sqlite multi-process] startup ${Math.round(started - spawned)} ms, ` +
        `checks ${Math.round(performance.now() - checking)} ms`,
    );
    await store.close();
  }, 240_000);
});
