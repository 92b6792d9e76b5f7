import { createMemoryEngine } from '@mem/core';
import { parseSessionSnapshot } from '@mem/core/backend';
import { afterAll, describe, expect, it } from 'vitest';
import { expectCleanExit, killAllWorkers, type Worker } from './child-workers.ts';
import { checkSnapshotAccounts, wholeTurns, writerIndexes } from './turns.ts';
import { type ProcessTestBackend, spawnCompactor, spawnTurnWriter } from './worker-store.ts';

const WRITERS = 8;
const TURNS = 500;

/**
 * Eight OS processes append 500 turns each to one session while a ninth compacts it in a loop.
 * Afterwards all 4,000 turns are there exactly once, whole and in each writer's order, and every
 * committed compaction is stored whole.
 */
export function runMultiProcessTests(name: string, backend: ProcessTestBackend): void {
  const tag = `${backend.tag} multi-process`;
  describe(`eight OS processes on ${name}, with a ninth compacting`, () => {
    afterAll(killAllWorkers);

    it('keeps all 4,000 turns exactly once, whole and in each writer order', async () => {
      const place = backend.place();
      const sessionId = 'shared';
      // One store opens the place first, so the workers do not all race to set it up.
      const store = backend.openStore(place);
      try {
        await store.info(sessionId);
        const writers: Worker[] = Array.from({ length: WRITERS }, (_, w) =>
          spawnTurnWriter(backend, place, sessionId, `w${w}`, TURNS),
        );
        const compactor = spawnCompactor(backend, place, sessionId, 100, 5);
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
          `[${tag}] ${WRITERS}x${TURNS} turns in ${Math.round(writing)} ms, ` +
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
          `[${tag}] startup ${Math.round(started - spawned)} ms, ` +
            `checks ${Math.round(performance.now() - checking)} ms`,
        );
        await store.clear(sessionId);
      } finally {
        await store.close();
      }
    }, 240_000);
  });
}
