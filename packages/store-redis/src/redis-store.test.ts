import { MemError } from '@mem/core';
import type { Store } from '@mem/core/backend';
import { Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createRedisStore } from './redis-store.ts';
import { encodeSessionId, sessionKeys } from './session-keys.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
let runs = 0;
const fresh = () => {
  runs += 1;
  return `own${Date.now().toString(36)}${runs}`;
};

const message = (id: string, text: string) => ({
  id,
  role: 'user' as const,
  content: text,
  createdAt: 1_700_000_000_000,
  tokenCount: 2,
});

const HOSTILE_IDS = [
  '*',
  '?',
  '{',
  '}',
  '{}',
  ':',
  '"',
  "'",
  '%',
  '..',
  '../..',
  '[a-z]',
  '\\*',
  'a}:m',
  '{x}:*',
  '😀 emoji',
  'ü',
  'x'.repeat(512),
  '💥'.repeat(256),
];

describe('createRedisStore options', () => {
  it('lists every bad option in one MemConfigError', () => {
    expect.assertions(2);
    try {
      createRedisStore({ url: 'http://x', namespace: 'a b', prefix: '{p}', ttlMs: -1 });
    } catch (error) {
      expect(MemError.isInstance(error) && error.code).toBe('MEM_CONFIG');
      expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toStrictEqual([
        'url',
        'prefix',
        'namespace',
        'ttlMs',
      ]);
    }
  });

  it('connects lazily: building a store against a closed port does not fail', async () => {
    const store = createRedisStore({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 500 });
    await expect(store.info('x')).rejects.toMatchObject({ code: 'MEM_STORE' });
    await store.close();
  });
});

describe('key layout', () => {
  it('puts every key of a session in one hash slot on the cluster', async () => {
    const prefix = fresh();
    const store = createRedisStore({ nodes, prefix, namespace: 'slots' });
    const cluster = new Cluster(nodes);
    try {
      for (const [i, id] of ['plain', '{tag}', '*', 'x'.repeat(512)].entries()) {
        await store.append(id, [message(`${i}-1`, 'a'), message(`${i}-2`, 'b')], {
          idempotencyKey: 'k',
        });
        const record = {
          id: `${i}-s`,
          originalMessageIds: [`${i}-1`],
          fromSeq: 1,
          throughSeq: 1,
          originalTokenCount: 2,
          tokenCount: 1,
          compressionRatio: 2,
          timeRange: { start: 1_700_000_000_000, end: 1_700_000_000_000 },
          createdAt: 1_700_000_000_000,
        };
        await store.compact(id, {
          expectedEpoch: 0,
          throughSeq: 1,
          summary: {
            id: `${i}-s`,
            role: 'system',
            content: 'sum',
            createdAt: 1_700_000_000_000,
            metadata: { kind: 'summary' },
            tokenCount: 1,
          },
          record,
        });
        const keys = await keysOnCluster(cluster, `${prefix}:*`);
        const mine = keys.filter((key) => key.includes(`:${encodeSessionId(id)}}`));
        expect(mine.length).toBeGreaterThanOrEqual(5);
        const slots = await Promise.all(mine.map((key) => cluster.cluster('KEYSLOT', key)));
        expect(new Set(slots).size).toBe(1);
        expect(mine.every((key) => sessionKeys(prefix, 'slots', id).includes(key))).toBe(true);
      }
    } finally {
      await store.close();
      cluster.disconnect();
    }
  });

  it('encodes session ids so none can form a hash tag, a glob or a separator', () => {
    for (const id of HOSTILE_IDS) {
      const keys = sessionKeys('mem', 'ns', id);
      for (const key of keys) {
        const tag = key.slice(key.indexOf('{') + 1, key.indexOf('}'));
        expect(tag).toMatch(/^ns:[A-Za-z0-9_-]+$/);
        expect(key.indexOf('{')).toBe(4);
      }
    }
  });
});

describe('ttl', () => {
  it('sets PEXPIRE on every key of the session on a write, and reads do not extend it', async () => {
    const client = new Redis(url);
    const prefix = fresh();
    const store = createRedisStore({ client, prefix, ttlMs: 60_000 });
    try {
      await store.append('t', [message('a', 'x'), message('b', 'y')], { idempotencyKey: 'k' });
      const keys = sessionKeys(prefix, 'default', 't');
      const ttls = await Promise.all(keys.map((key) => client.pttl(key)));
      const existing = ttls.filter((ttl) => ttl !== -2);
      expect(existing.length).toBeGreaterThanOrEqual(2);
      for (const ttl of existing) expect(ttl).toBeGreaterThan(50_000);
      await client.pexpire(keys[0] as string, 30_000);
      await store.read('t');
      await store.info('t');
      expect(await client.pttl(keys[0] as string)).toBeLessThanOrEqual(30_000);
    } finally {
      await store.close();
      client.disconnect();
    }
  });
});

describe.each([
  ['standalone', () => ({ url })],
  ['cluster', () => ({ nodes })],
] as const)('hostile session ids (%s)', (_name, connection) => {
  const opened: Store[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
  });

  it('stores and reads back every id exactly, each in its own session', async () => {
    const store = createRedisStore({ ...connection(), prefix: fresh(), namespace: 'hostile' });
    opened.push(store);
    for (const [i, id] of HOSTILE_IDS.entries()) {
      await store.append(id, [message(`m${i}`, `text of ${i}`)], { idempotencyKey: 'k' });
    }
    for (const [i, id] of HOSTILE_IDS.entries()) {
      const { messages } = await store.read(id);
      expect(messages).toStrictEqual([{ ...message(`m${i}`, `text of ${i}`), seq: 1 }]);
      expect((await store.info(id))?.id).toBe(id);
      expect((await store.export(id))?.sessionId).toBe(id);
    }
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list(cursor === undefined ? { limit: 4 } : { cursor, limit: 4 });
      listed.push(...page.sessionIds);
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(listed).toStrictEqual([...HOSTILE_IDS].sort());

    expect(await store.clear('*')).toBe(true);
    expect(await store.clear('{')).toBe(true);
    for (const [i, id] of HOSTILE_IDS.entries()) {
      const expected = id === '*' || id === '{' ? 0 : 1;
      expect((await store.read(id)).messages, `session ${i}`).toHaveLength(expected);
    }
  });
});

describe('ids and keys that are not well-formed UTF-16', () => {
  // UTF-8 (Redis strings) turns every lone surrogate into U+FFFD, so such ids and keys would
  // collide; core's shared checks reject them before any command is sent.
  it('rejects lone-surrogate message ids and idempotency keys and sends nothing', async () => {
    const prefix = fresh();
    const store = createRedisStore({ url, prefix });
    const client = new Redis(url);
    try {
      await expect(
        store.append('s', [message('\ud800', 'a')], { idempotencyKey: 'k1' }),
      ).rejects.toMatchObject({ code: 'MEM_VALIDATION', field: 'messages[0].id' });
      await expect(
        store.append('s', [message('a', 'a')], { idempotencyKey: '\ud83d' }),
      ).rejects.toMatchObject({ code: 'MEM_VALIDATION', field: 'idempotencyKey' });
      expect(await client.keys(`${prefix}:*`)).toStrictEqual([]);
      await store.append('s', [message('\ud83d\ude00', 'emoji id')], { idempotencyKey: '😀' });
      const second = await store.append('s', [message('b', 'b')], { idempotencyKey: '😁' });
      expect(second).toMatchObject({ duplicate: false, firstSeq: 2 });
      expect((await store.read('s')).messages.map((m) => m.id)).toStrictEqual(['😀', 'b']);
    } finally {
      await store.close();
      client.disconnect();
    }
  });
});

describe('existing clients', () => {
  it('uses a given client or cluster and never closes it', async () => {
    const client = new Redis(url);
    const cluster = new Cluster(nodes);
    try {
      for (const connection of [{ client }, { cluster }]) {
        const store = createRedisStore({ ...connection, prefix: fresh() });
        await store.append('s', [message('a', 'hello')], { idempotencyKey: 'k' });
        expect((await store.read('s')).messages).toHaveLength(1);
        await store.close();
      }
      expect(await client.ping()).toBe('PONG');
      expect(await cluster.ping()).toBe('PONG');
    } finally {
      client.disconnect();
      cluster.disconnect();
    }
  });
});

async function keysOnCluster(cluster: Cluster, pattern: string): Promise<string[]> {
  if (cluster.nodes('master').length === 0) await cluster.ping();
  const out: string[] = [];
  for (const node of cluster.nodes('master')) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000);
      out.push(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
  return out;
}

describe('data read back that this store did not write', () => {
  it('is a MemStoreError, never returned: a message or summary record of the wrong shape', async () => {
    const prefix = fresh();
    const store = createRedisStore({ url, prefix });
    const client = new Redis(url);
    try {
      await store.append('s', [message('a', 'a'), message('b', 'b')], { idempotencyKey: 'k' });
      const summary = {
        id: 'sum',
        role: 'system' as const,
        content: 'a and b',
        createdAt: 1_700_000_000_000,
        tokenCount: 3,
        metadata: { kind: 'summary' },
      };
      await store.compact('s', {
        expectedEpoch: 0,
        throughSeq: 1,
        summary,
        record: {
          id: 'sum',
          originalMessageIds: ['a'],
          fromSeq: 1,
          throughSeq: 1,
          originalTokenCount: 2,
          tokenCount: 3,
          compressionRatio: 2 / 3,
          timeRange: { start: 1_700_000_000_000, end: 1_700_000_000_000 },
          createdAt: 1_700_000_000_000,
        },
      });
      expect((await store.summaries('s')).map((r) => r.id)).toStrictEqual(['sum']);
      const [, active, records] = sessionKeys(prefix, 'default', 's');
      // Fields are the JSON of the id.
      await client.hset(records as string, '"sum"', JSON.stringify({ id: 'sum', fromSeq: 'one' }));
      await expect(store.summaries('s')).rejects.toMatchObject({ code: 'MEM_STORE' });
      await client.zadd(active as string, 9, JSON.stringify({ foo: 1 }));
      const error = await store.read('s').catch((e: unknown) => e);
      expect(MemError.isInstance(error) && error.code).toBe('MEM_STORE');
      expect((error as Error).message).toContain('corrupt');
    } finally {
      await store.close();
      client.disconnect();
    }
  });
});
