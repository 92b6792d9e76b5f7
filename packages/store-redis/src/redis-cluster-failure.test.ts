import { MemError } from '@mem/core';
import type { Store } from '@mem/core/backend';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClusterNodeSettings,
  clusterNodeArgs,
  startCluster,
  stopCluster,
  waitForClusterState,
} from './__fixtures__/redis-cluster.ts';
import {
  cli,
  killRedis,
  type RedisProcess,
  sleep,
  startRedis,
} from './__fixtures__/redis-process.ts';
import { createRedisStore } from './redis-store.ts';
import { sessionKeys } from './session-keys.ts';

/*
 * A master of a Redis Cluster dies. This test kills and restarts a node, so it gets a private
 * 3-master cluster (AOF on, appendfsync always, no replicas), started here and removed
 * afterwards; the shared cluster of the other test files is never touched.
 *
 * With `cluster-require-full-coverage no` the surviving masters keep serving their own slots;
 * with the default `yes`, once the dead master is marked FAIL every node answers CLUSTERDOWN.
 */
const SETTINGS: ClusterNodeSettings = {
  nodeTimeoutMs: 1_000,
  extra: ['--cluster-require-full-coverage', 'no'],
};
const PREFIX = 'nodefail';
const COMMAND_TIMEOUT_MS = 1_500;
/** A failing write must be reported within this long: never a hang. */
const FAIL_WITHIN_MS = COMMAND_TIMEOUT_MS + 2_500;

let masters: RedisProcess[] = [];
beforeAll(async () => {
  masters = await startCluster('nodefail', SETTINGS);
}, 60_000);
afterAll(async () => {
  await stopCluster(masters);
});

const turn = (id: string) => [
  { id, role: 'user' as const, content: `text ${id}`, createdAt: 1_700_000_000_000, tokenCount: 1 },
];

/** Port of the master that serves `sessionId` (by CLUSTER KEYSLOT and CLUSTER SLOTS). */
async function ownerPort(admin: Cluster, sessionId: string): Promise<number> {
  const key = sessionKeys(PREFIX, 'default', sessionId)[0]!;
  const slot = (await admin.cluster('KEYSLOT', key)) as number;
  const ranges = await admin.cluster('SLOTS');
  const range = ranges.find(([from, to]) => from <= slot && slot <= to);
  const master = range?.[2];
  if (master === undefined) throw new Error(`no master serves slot ${slot}`);
  return master[1];
}

/** The outcome of `promise` and how long it took. */
async function timed(promise: Promise<unknown>) {
  const started = Date.now();
  const outcome = await promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return { ...outcome, ms: Date.now() - started };
}

/** Retries `write` until it succeeds, for at most `ms` (a client needs a moment to reconnect). */
async function eventually<T>(write: () => Promise<T>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(200);
    }
  }
}

function expectStoreError(outcome: Awaited<ReturnType<typeof timed>>, label: string): void {
  expect(outcome.ok, label).toBe(false);
  const error = outcome.ok ? undefined : outcome.error;
  expect(MemError.isInstance(error) && error.code, `${label}: ${String(error)}`).toBe('MEM_STORE');
  expect((error as Error).message, label).toMatch(/^\[mem\/redis\] append failed/);
  expect(outcome.ms, label).toBeLessThan(FAIL_WITHIN_MS);
}

describe('a master of a private 3-master Redis Cluster dies and comes back', () => {
  it('fails writes to its slots with MemStoreError in bounded time, keeps the rest, and loses nothing acknowledged', async () => {
    const ports = masters.map((m) => m.port);
    const nodes = ports.map((port) => ({ host: '127.0.0.1', port }));
    const admin = new Cluster(nodes);
    let store: Store | undefined;
    try {
      // One session on each master.
      const sessionOf = new Map<number, string>();
      for (let i = 0; sessionOf.size < ports.length && i < 1_000; i++) {
        const port = await ownerPort(admin, `s${i}`);
        if (!sessionOf.has(port)) sessionOf.set(port, `s${i}`);
      }
      expect(sessionOf.size).toBe(3);
      const [victim, ...survivors] = masters as [RedisProcess, ...RedisProcess[]];
      const dead = sessionOf.get(victim.port)!;
      const alive = survivors.map((node) => sessionOf.get(node.port)!);

      store = createRedisStore({ nodes, prefix: PREFIX, commandTimeoutMs: COMMAND_TIMEOUT_MS });
      const acked = new Map<string, string[]>();
      /** Writes that failed: the store says they may or may not have been applied. */
      const failed = new Map<string, string[]>();
      const fail = (sessionId: string, id: string) =>
        failed.set(sessionId, [...(failed.get(sessionId) ?? []), id]);
      for (const sessionId of sessionOf.values()) {
        for (let t = 0; t < 3; t++) {
          const id = `${sessionId}-t${t}`;
          await store.append(sessionId, turn(id), { idempotencyKey: id });
          acked.set(sessionId, [...(acked.get(sessionId) ?? []), id]);
        }
      }

      await killRedis(victim);

      // (1) Partial coverage allowed: the dead master's slots fail, the others keep working.
      expectStoreError(
        await timed(store.append(dead, turn(`${dead}-lost`), { idempotencyKey: `${dead}-lost` })),
        'write to the dead master',
      );
      fail(dead, `${dead}-lost`);
      for (const sessionId of alive) {
        const id = `${sessionId}-during`;
        const outcome = await timed(store.append(sessionId, turn(id), { idempotencyKey: id }));
        expect(outcome.ok, `${sessionId}: ${outcome.ok ? '' : String(outcome.error)}`).toBe(true);
        acked.get(sessionId)!.push(id);
      }
      // Still failing, not hanging, once the survivors have marked the master FAIL.
      await waitForFailFlag(
        survivors.map((node) => node.port),
        victim.port,
      );
      expectStoreError(
        await timed(store.append(dead, turn(`${dead}-lost2`), { idempotencyKey: `${dead}-lost2` })),
        'write to the master marked FAIL',
      );
      fail(dead, `${dead}-lost2`);

      // (2) Full coverage required (the Redis default): the cluster state is fail and every
      // write is refused with CLUSTERDOWN, which the store reports as MemStoreError too.
      for (const node of survivors) {
        expect(cli(node.port, ['CONFIG', 'SET', 'cluster-require-full-coverage', 'yes'])).toBe(
          'OK',
        );
        // A node recomputes cluster_state only on a cluster event; a no-op SETSLOT is one.
        expect(cli(node.port, ['CLUSTER', 'SETSLOT', '0', 'STABLE'])).toBe('OK');
      }
      await waitForClusterState(
        survivors.map((node) => node.port),
        'fail',
      );
      for (const sessionId of alive) {
        const id = `${sessionId}-refused`;
        expectStoreError(
          await timed(store.append(sessionId, turn(id), { idempotencyKey: id })),
          `write to ${sessionId} while cluster_state is fail`,
        );
        fail(sessionId, id);
      }

      // (3) The master restarts on the same port and dir (its nodes.conf and AOF).
      masters[0] = await startRedis(
        victim.port,
        victim.dir,
        clusterNodeArgs(victim.port, SETTINGS),
      );
      await waitForClusterState(ports, 'ok');
      let appliedLate = 0;
      for (const [sessionId, ids] of acked) {
        const { messages } = await eventually(() => store!.read(sessionId), 15_000);
        // Every acknowledged write is there once, in order; after them at most the failed ones.
        const stored = messages.map((m) => m.id);
        expect(stored.slice(0, ids.length), sessionId).toStrictEqual(ids);
        const late = stored.slice(ids.length);
        expect(new Set(late).size, sessionId).toBe(late.length);
        for (const id of late) expect(failed.get(sessionId), sessionId).toContain(id);
        appliedLate += late.length;
      }
      // As the error says: retrying a failed write with its idempotency key makes it exactly once.
      for (const [sessionId, ids] of failed) {
        for (const id of ids) {
          await eventually(
            () => store!.append(sessionId, turn(id), { idempotencyKey: id }),
            15_000,
          );
        }
        const stored = (await store.read(sessionId)).messages.map((m) => m.id);
        const expected = acked.get(sessionId)!;
        expect(stored.slice(0, expected.length), sessionId).toStrictEqual(expected);
        expect(stored.slice(expected.length).sort(), sessionId).toStrictEqual([...ids].sort());
        expected.push(...ids);
      }
      console.log(
        `[cluster node failure] ${[...failed.values()].flat().length} writes failed, ${appliedLate} of them applied after the cluster recovered`,
      );
      for (const sessionId of sessionOf.values()) {
        const id = `${sessionId}-after`;
        const result = await eventually(
          () => store!.append(sessionId, turn(id), { idempotencyKey: id }),
          15_000,
        );
        expect(result, sessionId).toMatchObject({ duplicate: false });
        expect(result.lastSeq, sessionId).toBe(acked.get(sessionId)!.length + 1);
      }
    } finally {
      await store?.close();
      admin.disconnect();
    }
  }, 120_000);
});

/** Waits until every node in `ports` flags the master on `deadPort` as `fail`. */
async function waitForFailFlag(ports: readonly number[], deadPort: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const flagged = ports.every((port) =>
      cli(port, ['CLUSTER', 'NODES'])
        .split('\n')
        .some(
          (line) => line.includes(`:${deadPort}@`) && /\bfail\b/.test(line.split(' ')[2] ?? ''),
        ),
    );
    if (flagged) return;
    await sleep(100);
  }
  throw new Error(`the cluster never flagged 127.0.0.1:${deadPort} as fail`);
}
