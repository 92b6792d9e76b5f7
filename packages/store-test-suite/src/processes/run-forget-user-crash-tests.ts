import type { SessionSnapshot, Store } from '@mem/core/backend';
import { afterAll, describe, expect, it } from 'vitest';
import { expectCleanExit, killAllWorkers, seededRandom, sleep } from './child-workers.ts';
import { forgetUserFacts, forgetUserSessionId } from './forget-user-data.ts';
import { type ProcessTestBackend, spawnUserForgetter } from './worker-store.ts';

/** Runs killed during `forgetUser`, after one run that times a whole `forgetUser`. */
const KILLS = 8;
/** Sessions of the user forgotten, and of the other user who must stay whole. */
const USER_SESSIONS = 300;
const OTHER_SESSIONS = 12;

interface RoundResult {
  /** The kill landed before `forgetUser` returned in the child. */
  midForget: boolean;
  /** Sessions of the user the killed run had removed. */
  removedBeforeKill: number;
  /** ms from `forgetting` to `forgot`, when the run finished. */
  tookMs?: number;
}

async function exportAll(store: Store, ids: readonly string[]) {
  const snapshots: Array<SessionSnapshot | null> = [];
  for (const id of ids) snapshots.push(await store.export(id));
  return snapshots;
}

async function listUser(store: Store, userId: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({
      userId,
      limit: 50,
      ...(cursor === undefined ? {} : { cursor }),
    });
    ids.push(...page.sessionIds);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return ids.sort();
}

/**
 * One round: a child process gives user `u<round>` its sessions and facts (and `v<round>` its
 * own), then runs `forgetUser(u<round>)`; the parent SIGKILLs it `killAfterMs` after it printed
 * `forgetting` (or lets it finish, without `killAfterMs`). Then the parent checks what the run
 * left (every remaining session of the user whole), runs `forgetUser` again and checks that
 * nothing of the user remains and nothing of the other user changed.
 */
async function round(
  backend: ProcessTestBackend,
  place: string,
  store: Store,
  index: number,
  killAfterMs: number | undefined,
): Promise<RoundResult> {
  const user = { id: `u${index}`, sessions: USER_SESSIONS };
  const other = { id: `v${index}`, sessions: OTHER_SESSIONS };
  const userIds = Array.from({ length: user.sessions }, (_, i) => forgetUserSessionId(user.id, i));
  const otherIds = Array.from({ length: other.sessions }, (_, i) =>
    forgetUserSessionId(other.id, i),
  );
  const worker = spawnUserForgetter(backend, place, user, other);
  await worker.waitForLine((line) => line === 'created');
  const userBefore = await exportAll(store, userIds);
  const otherBefore = await exportAll(store, otherIds);
  const otherFacts = await store.userFacts(other.id);
  expect(userBefore.every((s) => s?.info.userId === user.id)).toBe(true);
  expect(otherBefore.every((s) => s?.info.userId === other.id)).toBe(true);
  expect(otherFacts.facts).toStrictEqual(forgetUserFacts(other.id));

  worker.send('go');
  await worker.waitForLine((line) => line === 'forgetting');
  const started = performance.now();
  let tookMs: number | undefined;
  if (killAfterMs === undefined) {
    await worker.waitForLine((line) => line.startsWith('forgot '));
    tookMs = performance.now() - started;
    await expectCleanExit(worker);
  } else {
    await sleep(killAfterMs);
    await worker.kill();
  }
  const midForget = !worker.lines.some((line) => line.startsWith('forgot '));

  // What the run left: each session of the user is gone or whole.
  const left = await exportAll(store, userIds);
  let messages = 0;
  left.forEach((snapshot, i) => {
    if (snapshot === null) return;
    expect(snapshot, userIds[i]).toStrictEqual(userBefore[i]);
    messages += snapshot.messages.length + snapshot.archived.length;
  });
  const remaining = left.filter((s) => s !== null).length;
  const factsLeft = (await store.userFacts(user.id)).facts.length;
  expect([0, forgetUserFacts(user.id).length]).toContain(factsLeft);

  expect(await store.forgetUser(user.id)).toStrictEqual({
    sessions: remaining,
    messages,
    facts: factsLeft,
  });
  expect(await listUser(store, user.id)).toStrictEqual([]);
  for (const id of userIds) expect(await store.info(id), id).toBeNull();
  expect(await store.userFacts(user.id)).toStrictEqual({ userId: user.id, version: 0, facts: [] });
  expect(await exportAll(store, otherIds)).toStrictEqual(otherBefore);
  expect(await store.userFacts(other.id)).toStrictEqual(otherFacts);
  expect(await listUser(store, other.id)).toStrictEqual([...otherIds].sort());
  expect(await store.forgetUser(user.id)).toStrictEqual({ sessions: 0, messages: 0, facts: 0 });
  return {
    midForget,
    removedBeforeKill: user.sessions - remaining,
    ...(tookMs === undefined ? {} : { tookMs }),
  };
}

/**
 * `forgetUser` under SIGKILL: a child process forgets a user of 300 sessions (beside another
 * user of 12) and is killed at a random point of the run (uniform over the time one whole run
 * took); then `forgetUser` runs again in the test process. Every session the killed run left is
 * whole, the second run removes exactly those and the facts, nothing of the user remains (no
 * session listed or readable, facts at version 0), and the other user's sessions and facts are
 * exactly as before. `MEM_CRASH_SEED=<seed>` replays a schedule.
 */
export function runForgetUserCrashTests(name: string, backend: ProcessTestBackend): void {
  const tag = `${backend.tag} forget-user crash`;
  describe(`forgetUser killed half-way on ${name}`, () => {
    afterAll(killAllWorkers);

    it(`leaves nothing of the user after a re-run, and every other user's data as it was (${KILLS} kills)`, async () => {
      const seed = Number(process.env.MEM_CRASH_SEED) || Date.now() % 2 ** 31;
      console.log(`[${tag}] seed ${seed} (rerun with MEM_CRASH_SEED=${seed})`);
      const random = seededRandom(seed);
      const place = backend.place();
      const store = backend.openStore(place);
      try {
        const timed = await round(backend, place, store, 0, undefined);
        const wholeRunMs = Math.max(2, timed.tookMs ?? 0);
        const results: RoundResult[] = [];
        for (let i = 1; i <= KILLS; i++) {
          // The first kill right away, the others anywhere in the time a whole run takes.
          const delay = i === 1 ? 0 : Math.floor(random() * wholeRunMs);
          results.push(await round(backend, place, store, i, delay));
        }
        const mid = results.filter((r) => r.midForget);
        const partial = mid.filter((r) => r.removedBeforeKill > 0);
        console.log(
          `[${tag}] a whole forgetUser of ${USER_SESSIONS} sessions took ${Math.round(wholeRunMs)} ms; ` +
            `${mid.length} of ${KILLS} kills landed inside it, ${partial.length} after it had removed ` +
            `some sessions (${partial.map((r) => r.removedBeforeKill).join(', ') || 'none'})`,
        );
        expect(mid.length).toBeGreaterThan(0);
      } catch (error) {
        throw new Error(`[${tag}] failed with seed ${seed}: ${String(error)}`, { cause: error });
      } finally {
        await store.close();
      }
    }, 300_000);
  });
}
