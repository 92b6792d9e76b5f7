import { createHash } from 'node:crypto';
import { MemError } from '@mem/core';
import { planCompaction } from '@mem/store-test-suite';
import { Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { APPEND_BASELINE_LUA } from './__fixtures__/append-baseline-lua.ts';
import { type AppendCounters, appendArgs, countersAfter } from './append-plan.ts';
import { encodeBatch } from './encode-stored.ts';
import { SCRIPTS } from './lua-scripts.ts';
import { runScript } from './redis-connection.ts';
import { createRedisStore } from './redis-store.ts';
import { sessionKeys } from './session-keys.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
const namespace = `append${Date.now().toString(36)}`;

const message = (id: string) => ({
  id,
  role: 'user' as const,
  content: `text of ${id}`,
  createdAt: 1_700_000_000_000,
  tokenCount: 3,
});
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const turn = (i: number) => [message(`m${i}a`), message(`m${i}b`)];

const baseline = {
  name: 'append (baseline)',
  lua: APPEND_BASELINE_LUA,
  sha: createHash('sha1').update(APPEND_BASELINE_LUA).digest('hex'),
};

const clients: (Redis | Cluster)[] = [];
afterAll(() => {
  for (const client of clients) client.disconnect();
});

/** Appends a turn with the script the store ran before the server-time cut (same ARGV). */
async function appendWithBaseline(
  client: Redis | Cluster,
  sessionId: string,
  messages: unknown,
  key: string,
): Promise<unknown> {
  const batch = encodeBatch(messages);
  const keys = sessionKeys('mem', namespace, sessionId);
  const args = ['1700000000000', 0, `k:${key}`, key, batch.tokens, batch.ids.length];
  return runScript(client, baseline, keys, [...args, ...batch.args]);
}

describe.each([
  ['standalone', () => new Redis(url), () => createRedisStore({ url, namespace })],
  ['cluster', () => new Cluster(nodes), () => createRedisStore({ nodes, namespace })],
])('a session written by the previous append script (%s)', (_, client, store) => {
  it('is read, deduplicated, id-checked and appended by the current one', async () => {
    const raw = client();
    clients.push(raw);
    const s = store();
    try {
      const old = await appendWithBaseline(raw, 'legacy', turn(0), 'k0');
      expect(old).toStrictEqual(['ok', '1:0:1:2']);
      await appendWithBaseline(raw, 'legacy', turn(1), 'k1');

      const read = await s.read('legacy');
      expect(read.messages.map((m) => [m.id, m.seq])).toStrictEqual([
        ['m0a', 1],
        ['m0b', 2],
        ['m1a', 3],
        ['m1b', 4],
      ]);
      // A retry of a key the old script applied is a duplicate with the old record.
      expect(await s.append('legacy', turn(1), { idempotencyKey: 'k1' })).toStrictEqual({
        version: 2,
        epoch: 0,
        firstSeq: 3,
        lastSeq: 4,
        duplicate: true,
      });
      // An id the old script stored is still taken.
      await expect(
        s.append('legacy', [message('m0b')], { idempotencyKey: 'k9' }),
      ).rejects.toSatisfy((error) => MemError.isInstance(error) && error.code === 'MEM_VALIDATION');
      expect(await s.append('legacy', turn(2), { idempotencyKey: 'k2' })).toStrictEqual({
        version: 3,
        epoch: 0,
        firstSeq: 5,
        lastSeq: 6,
        duplicate: false,
      });
      const info = await s.info('legacy');
      expect(info).toMatchObject({ version: 3, epoch: 0, lastSeq: 6, messageCount: 6 });
      expect(info?.tokenCount).toBe(18);
      const snapshot = await s.export('legacy');
      expect(snapshot?.idempotencyKeys.map((k) => k.key)).toStrictEqual(['k0', 'k1', 'k2']);
      // And the old script can still append after the new one (a rolling upgrade).
      expect(await appendWithBaseline(raw, 'legacy', turn(3), 'k3')).toStrictEqual([
        'ok',
        '4:0:7:8',
      ]);
      expect((await s.read('legacy')).messages).toHaveLength(8);
    } finally {
      await s.close();
    }
  });
});

describe('the append plan (standalone)', () => {
  const planned = async (
    client: Redis,
    sessionId: string,
    i: number,
    known: AppendCounters | undefined,
  ) => {
    const batch = encodeBatch(turn(i));
    const { args, planned } = appendArgs(String(1_700_000_000_000 + i), 0, `p${i}`, batch, known);
    const keys = sessionKeys('mem', namespace, sessionId);
    const reply = (await runScript(client, SCRIPTS.append, keys, args)) as unknown[];
    return { reply, known: countersAfter(reply, planned) };
  };

  it('is taken while the counters are as planned, and recomputed when another writer moved them', async () => {
    const client = new Redis(url);
    clients.push(client);
    const s = createRedisStore({ url, namespace });
    try {
      const first = await planned(client, 'plan', 0, undefined);
      // No plan on a new session: the script computes and returns the counters.
      expect(first.reply).toStrictEqual(['ok', '1:0:1:2', 2, 6, 1, 1]);
      const second = await planned(client, 'plan', 1, first.known);
      expect(second.reply).toStrictEqual(['ok', '2:0:3:4']);
      // Another writer appends in between: the stale plan is not taken.
      await s.append('plan', [message('other')], { idempotencyKey: 'other' });
      const third = await planned(client, 'plan', 2, second.known);
      expect(third.reply).toStrictEqual(['ok', '4:0:6:7', 7, 21, 4, 4]);
      // A compaction in between (epoch + 1) too.
      await s.compact('plan', await planCompaction(s, 'plan', 2, { tokenCount: 1 }));
      const fourth = await planned(client, 'plan', 3, third.known);
      expect(fourth.reply).toStrictEqual(['ok', '6:1:8:9', 8, 22, 5, 5]);
      expect((await planned(client, 'plan', 4, fourth.known)).reply).toStrictEqual([
        'ok',
        '7:1:10:11',
      ]);
      const info = await s.info('plan');
      expect(info).toMatchObject({ version: 7, epoch: 1, lastSeq: 11, messageCount: 10 });
      expect(info?.tokenCount).toBe(28);
    } finally {
      await s.close();
    }
  });

  it('leaves the trim to the script: a session keeps at most 1,152 keys', async () => {
    const client = new Redis(url);
    clients.push(client);
    let known: AppendCounters | undefined;
    let plans = 0;
    for (let i = 0; i < 1_300; i++) {
      const next = await planned(client, 'trim', i, known);
      if (next.reply.length === 2) plans += 1;
      known = next.known;
    }
    // Every append but the first and the two that trimmed (the 1,153rd and the 1,282nd: 129
    // keys dropped each time) took its plan.
    expect(plans).toBe(1_297);
    const [kn, ko] = await client.hmget(sessionKeys('mem', namespace, 'trim')[0]!, 'kn', 'ko');
    expect([kn, ko]).toStrictEqual(['1042', '1300']);
    expect(known).toMatchObject({ kn: 1_042, ko: 1_300, lastSeq: 2_600, count: 2_600 });
    const s = createRedisStore({ url, namespace });
    try {
      const keys = (await s.export('trim'))?.idempotencyKeys.map((k) => k.key);
      expect(keys).toHaveLength(1_042);
      expect(keys?.[0]).toBe('p258');
      expect(keys?.at(-1)).toBe('p1299');
    } finally {
      await s.close();
    }
  });
});

describe('the append script (standalone)', () => {
  it('appends batches past its chunk sizes (600 and 1,500 messages) and still checks every id', async () => {
    const s = createRedisStore({ url, namespace });
    try {
      const batch = (from: number, count: number) =>
        Array.from({ length: count }, (_, i) => message(`big${from + i}`));
      expect(await s.append('big', batch(0, 1_500), { idempotencyKey: 'a' })).toMatchObject({
        firstSeq: 1,
        lastSeq: 1_500,
        duplicate: false,
      });
      expect(await s.append('big', batch(1_500, 600), { idempotencyKey: 'b' })).toMatchObject({
        firstSeq: 1_501,
        lastSeq: 2_100,
      });
      // An id of the first batch at index 1,200 of a 1,500-message batch is found.
      const reused = batch(3_000, 1_500);
      reused[1_200] = message('big1499');
      await expect(s.append('big', reused, { idempotencyKey: 'c' })).rejects.toThrow(
        /messages\[1200\]\.id "big1499" is already used/,
      );
      const { messages } = await s.read('big');
      expect(messages.map((m) => m.seq)).toStrictEqual(
        Array.from({ length: 2_100 }, (_, i) => i + 1),
      );
      expect(await s.info('big')).toMatchObject({
        version: 2,
        lastSeq: 2_100,
        messageCount: 2_100,
      });
      expect((await s.info('big'))?.tokenCount).toBe(6_300);
    } finally {
      await s.close();
    }
  });

  it('runs one HMGET, one ZADD, one HSET and one PTTL per append, on two keys', async () => {
    const s = createRedisStore({ url, namespace });
    const monitor = await new Redis(url).monitor();
    clients.push(monitor);
    const [meta, active] = sessionKeys('mem', namespace, 'counted');
    const seen: string[][] = [];
    let probes = 0;
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (!args.some((a) => a === meta || a === active)) return;
      if (source.startsWith('lua')) seen.push(args);
      else if (args[0]?.toUpperCase() === 'HMGET') probes += 1;
    });
    try {
      await s.append('counted', turn(0), { idempotencyKey: 'a' });
      await s.info('counted');
      for (let i = 0; i < 200 && probes < 1; i++) await sleep(10);
      seen.length = 0;
      await s.append('counted', turn(1), { idempotencyKey: 'b' });
      // MONITOR lags behind the replies: wait for the info probe sent after the append.
      await s.info('counted');
      for (let i = 0; i < 200 && probes < 2; i++) await sleep(10);
      expect(seen.map((args) => [args[0]?.toUpperCase(), args[1]])).toStrictEqual([
        ['HMGET', meta],
        ['ZADD', active],
        ['HSET', meta],
        ['PTTL', meta],
      ]);
      // HMGET: 8 counters, the key's record, the 2 ids; HSET: 9 fields and the 2 ids.
      expect(seen.map((args) => args.length - 2)).toStrictEqual([11, 4, 22, 0]);
    } finally {
      await s.close();
    }
  });
});
