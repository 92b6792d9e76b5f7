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
import { createRedisKnowledgeBase } from './redis-knowledge-base.ts';
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

  it('says for each operation what is true after it failed: reads changed nothing, writes may have applied', async () => {
    const store = createRedisStore({
      url: `redis://127.0.0.1:${server.port}`,
      commandTimeoutMs: 1_000,
    });
    try {
      await store.append('gone', [message('g1'), message('g2')], { idempotencyKey: 'k1' });
      const snapshot = (await store.export('gone'))!;
      const summary = { ...message('sum'), role: 'system' as const, metadata: { kind: 'summary' } };
      const record = {
        id: 'sum',
        originalMessageIds: ['g1'],
        fromSeq: 1,
        throughSeq: 1,
        originalTokenCount: 1,
        tokenCount: 1,
        compressionRatio: 1,
        timeRange: { start: 0, end: 0 },
        createdAt: 0,
      };
      await killRedis(server);
      const calls: Record<string, () => Promise<unknown>> = {
        read: () => store.read('gone'),
        info: () => store.info('gone'),
        summaries: () => store.summaries('gone'),
        archived: () => store.archived('gone', 'sum'),
        list: () => store.list(),
        export: () => store.export('gone'),
        append: () => store.append('gone', [message('g3')], { idempotencyKey: 'k2' }),
        compact: () => store.compact('gone', { expectedEpoch: 0, throughSeq: 1, summary, record }),
        erase: () => store.erase('gone', { expectedEpoch: 0, throughSeq: 1 }),
        replace: () => store.replace('gone', { messages: [message('g4')] }),
        clear: () => store.clear('gone'),
        import: () => store.import(snapshot),
      };
      const errors = await Promise.all(
        Object.entries(calls).map(async ([name, call]) => {
          const error = await call().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(MemError.isInstance(error) && error.code, name).toBe('MEM_STORE');
          const text = (error as Error).message;
          expect(text, name).toMatch(new RegExp(`^\\[mem/redis\\] ${name} failed: `));
          return [name, text] as const;
        }),
      );
      const said = Object.fromEntries(errors);
      for (const read of ['read', 'info', 'summaries', 'archived', 'list', 'export']) {
        expect(said[read], read).toContain('nothing was changed, so retry it as it is');
        expect(said[read], read).not.toMatch(/may or may not|idempotency key/);
      }
      expect(said.append).toContain('may or may not have been applied');
      expect(said.append).toContain('retry it with the same idempotency key');
      expect(said.clear).toContain('clear is idempotent, so retry it');
      expect(said.clear).not.toContain('idempotency key');
      for (const write of ['compact', 'erase']) {
        expect(said[write], write).toContain('may or may not have been applied');
        expect(said[write], write).toContain('expectedEpoch');
      }
      expect(said.replace).toContain('expectedVersion');
      expect(said.import).toContain('retrying it is safe');
      for (const write of ['compact', 'erase', 'replace', 'import']) {
        expect(said[write], write).not.toContain('idempotency key');
      }
      await restart();
      expect(await store.export('gone')).toStrictEqual(snapshot);
    } finally {
      await store.close();
    }
  });

  it('says the same for the knowledge base: search and count changed nothing, add and delete are safe to retry', async () => {
    const kb = createRedisKnowledgeBase({
      url: `redis://127.0.0.1:${server.port}`,
      commandTimeoutMs: 1_000,
    });
    try {
      const chunk = {
        id: 'c1',
        text: 'quokkas live on Rottnest Island',
        tokenCount: 5,
        metadata: { sessionId: 's1', kind: 'summary' as const, messageIds: [], createdAt: 1 },
      };
      await kb.add('docs', [chunk]);
      await killRedis(server);
      const calls: Record<string, () => Promise<unknown>> = {
        search: () => kb.search('docs', 'quokkas', { topK: 3 }),
        count: () => kb.count('docs'),
        add: () => kb.add('docs', [chunk]),
        delete: () => kb.delete('docs', { sessionId: 's1' }),
      };
      const said: Record<string, string> = {};
      await Promise.all(
        Object.entries(calls).map(async ([name, call]) => {
          const error = await call().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(MemError.isInstance(error) && error.code, name).toBe('MEM_STORE');
          said[name] = (error as Error).message;
        }),
      );
      for (const read of ['search', 'count']) {
        expect(said[read], read).toContain('nothing was changed, so retry it as it is');
      }
      expect(said.add).toContain('retrying it is safe');
      expect(said.delete).toContain('retry it');
      for (const text of Object.values(said)) expect(text).not.toContain('idempotency key');
      await restart();
      expect(await kb.count('docs')).toBe(1);
    } finally {
      await kb.close();
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
