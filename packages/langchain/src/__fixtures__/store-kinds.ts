import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryStore, type Store } from '@mem/core';
import { createRedisStore, type RedisConnection } from '@mem/store-redis';
import { createSqliteStore } from '@mem/store-sqlite';
import { afterEach, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Port of the standalone redis-server the test setup started. */
    redisPort: number;
    /** Ports of the three masters of the Redis Cluster the test setup started. */
    clusterPorts: number[];
  }
}

let n = 0;

/**
 * The stores every store-touching case runs on: the in-memory store, a SQLite file in a
 * temporary directory, and a standalone Redis and a Redis Cluster started on loopback by the
 * test setup (under a key prefix no other store uses). Each is closed (and its files removed)
 * after the test that opened it.
 */
export function storeKinds(label: string): Array<[name: string, open: () => Store]> {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const redis = (connection: RedisConnection) => () => {
    const prefix = `langchain${process.pid}x${Date.now().toString(36)}x${n++}`;
    const store = createRedisStore({ ...connection, prefix });
    cleanups.push(() => store.close());
    return store;
  };
  return [
    ['in-memory store', () => createInMemoryStore()],
    [
      'SQLite store',
      () => {
        const dir = mkdtempSync(join(tmpdir(), `mem-langchain-${label}-`));
        const store = createSqliteStore({ path: join(dir, 'mem.db') });
        cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
        cleanups.push(() => store.close());
        return store;
      },
    ],
    ['standalone Redis', redis({ url: `redis://127.0.0.1:${inject('redisPort')}` })],
    [
      'Redis Cluster',
      redis({ nodes: inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port })) }),
    ],
  ];
}
