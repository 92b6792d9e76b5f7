import { createHash } from 'node:crypto';
import { MemError } from '@mem/core';
import { Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { APPEND_BASELINE_LUA } from './__fixtures__/append-baseline-lua.ts';
import { encodeBatch } from './encode-stored.ts';
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
