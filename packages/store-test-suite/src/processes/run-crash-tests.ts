import { createMemoryEngine } from '@mem/core';
import { parseSessionSnapshot, type Store } from '@mem/core/backend';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllWorkers, seededRandom, sleep } from './child-workers.ts';
import { runFlushCrashTests } from './run-flush-crash-tests.ts';
import { runForgetUserCrashTests } from './run-forget-user-crash-tests.ts';
import { checkSnapshotAccounts, turnMessages, wholeTurns, writerIndexes } from './turns.ts';
import { type ProcessTestBackend, spawnCompactor, spawnTurnWriter } from './worker-store.ts';

/** Kills per lane; two appending lanes and one compacting lane run at once: 51 kills. */
const KILLS_PER_LANE = 17;
const profile = {
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 0,
      interaction_threshold_tokens: 0,
      interaction_keep: 1,
    },
  ],
};

interface LaneResult {
  /** Writer label of each run -> turns it acknowledged. */
  acked: Map<string, number>;
  compactions: number;
  kills: number;
  /** Kills that hit a compactor between `attempt` and its outcome: mid-compaction. */
  midCompaction: number;
}

/**
 * One lane of kills: starts the worker, lets it run 20-200 ms after `go` (a compactor on odd
 * runs: after its first run), SIGKILLs it, and repeats. An appending lane runs the turn writer
 * with a new writer label per run; a compacting lane runs the compactor.
 */
async function lane(
  backend: ProcessTestBackend,
  kind: 'append' | 'compact',
  label: string,
  place: string,
  sessionId: string,
  random: () => number,
): Promise<LaneResult> {
  const result: LaneResult = { acked: new Map(), compactions: 0, kills: 0, midCompaction: 0 };
  for (let run = 0; run < KILLS_PER_LANE; run++) {
    const writer = `${label}r${run}`;
    const worker =
      kind === 'append'
        ? spawnTurnWriter(backend, place, sessionId, writer, 'forever')
        : spawnCompactor(backend, place, sessionId, 2, 1);
    await worker.waitForLine((line) => line === 'ready');
    worker.send('go');
    if (kind === 'compact' && run % 2 === 1) {
      // The first run after a start summarizes everything since the last commit, and a kill
      // 20-200 ms in mostly lands inside it (even runs). Odd runs let it finish, so the kill
      // lands in a later, short run, and commits happen too.
      await worker.waitForLine((line) => line === 'compacted' || line === 'unchanged');
    }
    await sleep(20 + Math.floor(random() * 181));
    await worker.kill();
    const { signal } = await worker.exited;
    if (signal !== 'SIGKILL') {
      throw new Error(`${writer} ended before the kill:\n${worker.stderr().slice(-4_000)}`);
    }
    result.kills += 1;
    if (kind === 'append') {
      result.acked.set(writer, worker.lines.filter((line) => line.startsWith('ack ')).length);
    } else {
      result.compactions += worker.lines.filter((line) => line === 'compacted').length;
      if (worker.lines.at(-1) === 'attempt') result.midCompaction += 1;
    }
  }
  return result;
}

/** Everything the crash test asserts about the session after the kills. */
async function checkSession(store: Store, sessionId: string, acked: Map<string, number>) {
  const engine = createMemoryEngine({ profile, store });
  const history = await engine.session(sessionId).history();
  // Throws if a turn is split, incomplete or duplicated.
  const turnIds = wholeTurns(history);
  for (const [writer, count] of acked) {
    // One process appends in order: what it wrote is a prefix 0..n-1, holding every
    // acknowledged turn and at most the one unacknowledged turn in flight when it died.
    const indexes = writerIndexes(turnIds, writer);
    expect(indexes, writer).toStrictEqual(indexes.map((_, i) => i));
    expect(indexes.length, writer).toBeGreaterThanOrEqual(count);
    expect(indexes.length, writer).toBeLessThanOrEqual(count + 1);
  }
  const snapshot = parseSessionSnapshot(await store.export(sessionId));
  checkSnapshotAccounts(snapshot, turnIds.length);
  for (const record of snapshot.summaries) {
    const archived = await store.archived(sessionId, record.id);
    expect(archived.map((m) => m.id)).toStrictEqual(record.originalMessageIds);
  }
  return { engine, turnIds, snapshot };
}

/**
 * SIGKILL at random points: two lanes of turn-writer processes and one lane of compactor
 * processes on one session, each process killed 20-200 ms in (51 kills). Afterwards no
 * acknowledged turn is lost, no turn is split or doubled, no compaction is half applied, and the
 * store still takes appends and compactions. The kill schedule comes from a seed printed in the
 * log; `MEM_CRASH_SEED=<seed>` replays it. Then the same with FLUSH persistence
 * (`runFlushCrashTests`): writers killed between two flushes; and `forgetUser` killed half-way
 * and run again (`runForgetUserCrashTests`).
 */
export function runCrashTests(name: string, backend: ProcessTestBackend): void {
  const tag = `${backend.tag} crash`;
  describe(`SIGKILL at random points on ${name}`, () => {
    afterAll(killAllWorkers);

    it('never loses an acknowledged turn nor half-applies a compaction (51 kills)', async () => {
      const seed = Number(process.env.MEM_CRASH_SEED) || Date.now() % 2 ** 31;
      console.log(`[${tag}] seed ${seed} (rerun with MEM_CRASH_SEED=${seed})`);
      const random = seededRandom(seed);
      const place = backend.place();
      const sessionId = 'crashy';
      const store = backend.openStore(place);
      const laneOf = (kind: 'append' | 'compact', label: string) =>
        lane(backend, kind, label, place, sessionId, seededRandom(Math.floor(random() * 2 ** 31)));
      try {
        await store.info(sessionId);
        const started = performance.now();
        const lanes = await Promise.all([
          laneOf('append', 'a'),
          laneOf('append', 'b'),
          laneOf('compact', 'c'),
        ]);
        const acked = new Map(lanes.flatMap((l) => [...l.acked]));
        const kills = lanes.reduce((s, l) => s + l.kills, 0);
        const compactions = lanes.reduce((s, l) => s + l.compactions, 0);
        const midCompaction = lanes.reduce((s, l) => s + l.midCompaction, 0);
        const ackedTurns = [...acked.values()].reduce((s, n) => s + n, 0);
        console.log(
          `[${tag}] ${kills} kills in ${Math.round(performance.now() - started)} ms; ` +
            `${ackedTurns} turns acknowledged, ${compactions} compactions acknowledged, ${midCompaction} kills mid-compaction`,
        );
        expect(kills).toBeGreaterThanOrEqual(50);
        expect(ackedTurns).toBeGreaterThan(0);
        expect(midCompaction).toBeGreaterThan(0);

        const { engine, turnIds, snapshot } = await checkSession(store, sessionId, acked);
        expect(snapshot.summaries.length).toBeGreaterThanOrEqual(compactions);
        console.log(
          `[${tag}] ${turnIds.length} turns and ${snapshot.summaries.length} compactions stored`,
        );

        // The store still takes appends and compactions.
        const after = await store.append(sessionId, turnMessages('after:0', Date.now()), {
          idempotencyKey: 'after:0',
        });
        expect(after.duplicate).toBe(false);
        await store.append(sessionId, turnMessages('after:1', Date.now()), {
          idempotencyKey: 'after:1',
        });
        expect(await engine.session(sessionId).summarizeNow({ keepInteractions: 1 })).toBe(true);
        acked.set('after', 2);
        const final = await checkSession(store, sessionId, acked);
        expect(final.turnIds).toHaveLength(turnIds.length + 2);
        expect(final.snapshot.summaries).toHaveLength(snapshot.summaries.length + 1);
      } catch (error) {
        throw new Error(`[${tag}] failed with seed ${seed}: ${String(error)}`, { cause: error });
      } finally {
        await store.close();
      }
    }, 240_000);

    it('counts every turn a writer acknowledged, even while the test is not reading its output', async () => {
      // A writer whose printed acks sat in its own output buffer when it was killed would leave
      // more turns stored than the test saw acknowledged. A 200-character writer label makes each
      // ack ~210 bytes, so 3,000 of them are several times what a pipe and the reader hold.
      const place = backend.place();
      const sessionId = 'unread';
      const writer = `u${'x'.repeat(199)}`;
      const store = backend.openStore(place);
      const worker = spawnTurnWriter(backend, place, sessionId, writer, 'forever');
      try {
        await store.info(sessionId);
        await worker.waitForLine((line) => line === 'ready');
        worker.child.stdout?.pause();
        worker.send('go');
        // Not reading until 3,000 turns are stored, or none for 1.5 s (the writer waits for room).
        const started = performance.now();
        let stored = 0;
        let progressAt = started;
        while (stored < 3_000 && performance.now() - progressAt < 1_500) {
          if (performance.now() - started > 60_000)
            throw new Error('the writer stored too little in 60 s');
          await sleep(50);
          const turns = ((await store.info(sessionId))?.messageCount ?? 0) / 4;
          if (turns > stored) progressAt = performance.now();
          stored = turns;
        }
        worker.child.stdout?.resume();
        await sleep(100);
        await worker.kill();
        const acked = worker.lines.filter((line) => line.startsWith('ack ')).length;
        await checkSession(store, sessionId, new Map([[writer, acked]]));
      } finally {
        await worker.kill();
        await store.close();
      }
    }, 120_000);
  });

  runFlushCrashTests(name, backend);
  runForgetUserCrashTests(name, backend);
}
