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
import { afterAll, describe, expect, inject, it } from 'vitest';
import { clusterTarget, openStore, standaloneTarget } from './__fixtures__/open-store.ts';

afterAll(killAllWorkers);

const WRITERS = 8;
const TURNS = 500;
/** A key prefix of this run only: the servers are shared with the other test files. */
const prefix = `multi-${process.pid}`;

async function eightWritersAndACompactor(label: string, target: string): Promise<void> {
  const sessionId = `shared-${label}`;
  const store = openStore(target, prefix);
  try {
    const writers: Worker[] = Array.from({ length: WRITERS }, (_, w) =>
      spawnWorker(new URL('./__fixtures__/turn-writer.ts', import.meta.url), [
        target,
        prefix,
        sessionId,
        `w${w}`,
        '0',
        String(TURNS),
      ]),
    );
    const compactor = spawnWorker(new URL('./__fixtures__/compaction-loop.ts', import.meta.url), [
      target,
      prefix,
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
      `[redis ${label} multi-process] ${WRITERS}x${TURNS} turns in ${Math.round(writing)} ms, ` +
        `${result.commits}/${result.attempts} compactions committed ` +
        `(startup ${Math.round(started - spawned)} ms)`,
    );

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
    await store.clear(sessionId);
  } finally {
    await store.close();
  }
}

describe('eight OS processes appending to one Redis session, with a ninth compacting', () => {
  it(
    'standalone: keeps all 4,000 turns exactly once, whole and in each writer order',
    () => eightWritersAndACompactor('standalone', standaloneTarget(inject('redisPort'))),
    240_000,
  );

  it(
    'cluster: keeps all 4,000 turns exactly once, whole and in each writer order',
    () => eightWritersAndACompactor('cluster', clusterTarget(inject('clusterPorts'))),
    240_000,
  );
});
