import { createMemoryEngine } from '@mem/core';
import { isSummaryMessage, parseSessionSnapshot, type Store } from '@mem/core/backend';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllWorkers, seededRandom, sleep } from './child-workers.ts';
import { FLUSH_CRASH_PROFILE } from './flush-crash-profile.ts';
import { wholeTurns } from './turns.ts';
import { type ProcessTestBackend, spawnFlushWriter } from './worker-store.ts';

/**
 * Runs, each ended by a SIGKILL: even ones right after a compaction committed, odd ones 20-200
 * ms after their first flush.
 */
const KILLS = 8;

/** One FLUSH writer process, killed; returns the turns it acknowledged, in order. */
async function killedRun(
  backend: ProcessTestBackend,
  place: string,
  sessionId: string,
  writer: string,
  stall: boolean,
  random: () => number,
): Promise<string[]> {
  const worker = spawnFlushWriter(backend, place, sessionId, writer, stall ? 'stall' : 'run');
  await worker.waitForLine((line) => line === 'ready');
  worker.send('go');
  if (stall) await worker.waitForLine((line) => line === 'compacted');
  else {
    // Past its first inference, so the kill lands among appends, compactions and flushes.
    await worker.waitForLine((line) => line.startsWith('flushed '));
    await sleep(20 + Math.floor(random() * 181));
  }
  await worker.kill();
  const { signal } = await worker.exited;
  if (signal !== 'SIGKILL') {
    throw new Error(`${writer} ended before the kill:\n${worker.stderr().slice(-4_000)}`);
  }
  return worker.lines.filter((line) => line.startsWith('ack ')).map((line) => line.slice(4));
}

/**
 * Checks the session against what the writers acknowledged: the turns still active are whole
 * and a contiguous run of the newest ones written; every acknowledged turn is active or older
 * than all of them, and then counted by the summary (`metadata.interactions` adds up).
 */
async function checkAccounts(store: Store, sessionId: string, runs: string[][]) {
  const snapshot = parseSessionSnapshot(await store.export(sessionId));
  const summaries = snapshot.messages.filter(isSummaryMessage);
  expect(summaries.length).toBeLessThanOrEqual(1);
  const active = wholeTurns(snapshot.messages.filter((m) => !isSummaryMessage(m)));
  // Writing order: run by run, turn by turn; a run may have one unacknowledged turn stored.
  const order = (turnId: string) => {
    const [writer, i] = turnId.split(':') as [string, string];
    return Number(writer.slice(1)) * 1_000_000 + Number(i);
  };
  const acked = runs.flat();
  const ackedSet = new Set(acked);
  for (const turnId of active) {
    const [writer, i] = turnId.split(':') as [string, string];
    const run = runs[Number(writer.slice(1))]!;
    expect(ackedSet.has(turnId) || Number(i) === run.length, turnId).toBe(true);
  }
  const first = active.length === 0 ? Number.POSITIVE_INFINITY : order(active[0]!);
  const activeSet = new Set(active);
  expect(acked.filter((t) => order(t) >= first && !activeSet.has(t))).toEqual([]);
  const summarized = (summaries[0]?.metadata?.interactions as number | undefined) ?? 0;
  expect(summarized + active.length).toBeGreaterThanOrEqual(acked.length);
  expect(summarized + active.length).toBeLessThanOrEqual(acked.length + runs.length);
  if (acked.some((t) => order(t) < first)) expect(summaries).toHaveLength(1);
  return snapshot;
}

/**
 * FLUSH persistence under SIGKILL: writer processes on one session, each killed either right
 * after a compaction committed and before the flush that follows it, or at a random point.
 * After each kill the next writer's first inference flushes what the last one left; no
 * acknowledged turn is lost (active, or counted by the summary), and one more inference leaves
 * exactly the conversation. `MEM_CRASH_SEED=<seed>` replays a schedule.
 */
export function runFlushCrashTests(name: string, backend: ProcessTestBackend): void {
  const tag = `${backend.tag} flush crash`;
  describe(`FLUSH with SIGKILL between two flushes on ${name}`, () => {
    afterAll(killAllWorkers);

    it(`a writer killed between a compaction and its flush, or anywhere, loses no acknowledged turn, and the next inference stores exactly the conversation (${KILLS} kills)`, async () => {
      const seed = Number(process.env.MEM_CRASH_SEED) || Date.now() % 2 ** 31;
      console.log(`[${tag}] seed ${seed} (rerun with MEM_CRASH_SEED=${seed})`);
      const random = seededRandom(seed);
      const place = backend.place();
      const sessionId = 'flushy';
      const store = backend.openStore(place);
      const runs: string[][] = [];
      let leftBehind = 0;
      try {
        await store.info(sessionId);
        for (let run = 0; run < KILLS; run++) {
          const stall = run % 2 === 0;
          runs.push(await killedRun(backend, place, sessionId, `f${run}`, stall, random));
          const snapshot = await checkAccounts(store, sessionId, runs);
          // Killed after a compaction, before its flush: its record and archive are stored.
          if (stall && snapshot.summaries.length > 0) leftBehind += 1;
        }
        console.log(`[${tag}] ${runs.flat().length} turns acknowledged in ${KILLS} runs`);
        expect(leftBehind).toBe(KILLS / 2);

        const engine = createMemoryEngine({ profile: FLUSH_CRASH_PROFILE, store });
        const session = engine.session(sessionId);
        await session.append({ role: 'user', content: 'Where were we?' });
        await session.idle();
        const final = parseSessionSnapshot(await store.export(sessionId));
        expect(final.archived).toEqual([]);
        expect(final.summaries).toEqual([]);
        expect(final.messages).toEqual(await session.messages());
        expect(final.messages.filter(isSummaryMessage)).toHaveLength(1);
      } catch (error) {
        throw new Error(`[${tag}] failed with seed ${seed}: ${String(error)}`, { cause: error });
      } finally {
        await store.close();
      }
    }, 120_000);
  });
}
