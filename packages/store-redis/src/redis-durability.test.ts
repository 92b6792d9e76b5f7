import { MemError } from '@mem/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cli,
  freePort,
  killRedis,
  makeDir,
  type RedisProcess,
  removeDir,
  startRedis,
} from './__fixtures__/redis-process.ts';
import { createRedisStore } from './redis-store.ts';

/*
 * These tests kill and restart a server, so they get a dedicated one (AOF on, appendfsync
 * always), started here and removed afterwards; the shared servers are never touched.
 */
let server: RedisProcess;
const restart = async () => {
  server = await startRedis(server.port, server.dir);
};

beforeAll(async () => {
  server = await startRedis(await freePort(), makeDir('durability'));
});
afterAll(async () => {
  await killRedis(server);
  removeDir(server.dir);
});

const message = (id: string) => ({
  id,
  role: 'user' as const,
  content: `text ${id}`,
  createdAt: 1_700_000_000_000,
  tokenCount: 1,
});

describe('durability and reconnects (dedicated server)', () => {
  it('keeps an acknowledged append across kill -9 and a restart (AOF, appendfsync always)', async () => {
    const store = createRedisStore({ url: `redis://127.0.0.1:${server.port}` });
    try {
      const result = await store.append('durable', [message('a'), message('b')], {
        idempotencyKey: 'k1',
      });
      expect(result).toMatchObject({ duplicate: false, lastSeq: 2 });
      await killRedis(server);
      await restart();
      // The same store reconnects on its own.
      const { messages } = await store.read('durable');
      expect(messages.map((m) => m.id)).toStrictEqual(['a', 'b']);
      const again = await store.append('durable', [message('a'), message('b')], {
        idempotencyKey: 'k1',
      });
      expect(again).toStrictEqual({ ...result, duplicate: true });
    } finally {
      await store.close();
    }
  });

  it('fails a write with MemStoreError within commandTimeoutMs while the server is down, then succeeds after restart', async () => {
    const commandTimeoutMs = 1_500;
    const store = createRedisStore({ url: `redis://127.0.0.1:${server.port}`, commandTimeoutMs });
    try {
      await store.append('down', [message('x')], { idempotencyKey: 'k1' });
      await killRedis(server);
      const started = Date.now();
      const error = await store.append('down', [message('y')], { idempotencyKey: 'k2' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      const elapsed = Date.now() - started;
      expect(MemError.isInstance(error) && error.code).toBe('MEM_STORE');
      expect((error as Error).message).toMatch(/^\[mem\/redis\] append failed/);
      expect(elapsed).toBeLessThan(commandTimeoutMs + 1_000);
      await restart();
      const result = await store.append('down', [message('y')], { idempotencyKey: 'k2' });
      expect(result).toMatchObject({ duplicate: false, firstSeq: 2, lastSeq: 2 });
      expect((await store.read('down')).messages.map((m) => m.id)).toStrictEqual(['x', 'y']);
    } finally {
      await store.close();
    }
  });

  it('lists with SCAN and never sends KEYS (server command statistics)', async () => {
    const client = new Redis(server.port, '127.0.0.1');
    const store = createRedisStore({ client, namespace: 'scan' });
    try {
      for (const id of ['a', 'b', 'c']) {
        await store.append(id, [message(`${id}1`)], { idempotencyKey: 'k' });
      }
      await client.config('RESETSTAT');
      expect((await store.list({ limit: 2 })).sessionIds).toStrictEqual(['a', 'b']);
      const stats = cli(server.port, ['INFO', 'commandstats']);
      expect(stats).toMatch(/cmdstat_scan:calls=\d+/);
      expect(stats).not.toMatch(/cmdstat_keys:/);
    } finally {
      await store.close();
      client.disconnect();
    }
  });
});
