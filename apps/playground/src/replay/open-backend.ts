import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createInMemoryKnowledgeBase,
  createInMemoryStore,
  type KnowledgeBase,
  MemConfigError,
  type Store,
} from '@mem/core';
import { createRedisKnowledgeBase, createRedisStore } from '@mem/store-redis';
import { createSqliteKnowledgeBase, createSqliteStore } from '@mem/store-sqlite';
import type { StoreKind } from './replay-types.ts';

export interface BackendOptions {
  store: StoreKind;
  /** SQLite file (default: a fresh file in a temporary directory, removed on close). */
  sqlitePath?: string;
  /** Where that temporary directory is made (default: the OS's). */
  tempRoot?: string;
  /** Required for `redis`. */
  redisUrl?: string;
}

/** A store and the knowledge base that goes with it (same SQLite file, same Redis server). */
export interface Backend {
  store: Store;
  knowledgeBase: KnowledgeBase;
  /** Human-readable location, e.g. the SQLite file. */
  location: string;
  close(): Promise<void>;
}

const STORES: readonly StoreKind[] = ['memory', 'sqlite', 'redis'];

/** @throws MemConfigError for an unknown store or a Redis store without a URL. */
export async function openBackend(options: BackendOptions): Promise<Backend> {
  if (!STORES.includes(options.store)) {
    throw new MemConfigError(
      [
        {
          path: 'store',
          message: `expected one of ${STORES.join(', ')}, got ${JSON.stringify(options.store)}`,
        },
      ],
      { source: 'replay options' },
    );
  }
  if (options.store === 'memory') {
    const store = createInMemoryStore();
    const knowledgeBase = createInMemoryKnowledgeBase();
    return {
      store,
      knowledgeBase,
      location: 'in memory',
      close: () => closeAll(store, knowledgeBase),
    };
  }
  if (options.store === 'redis') {
    const url = options.redisUrl;
    if (url === undefined || url === '') {
      throw new MemConfigError(
        [
          {
            path: 'redisUrl',
            message: 'the redis store needs a URL, e.g. redis://127.0.0.1:6379 (CLI: --redis-url)',
          },
        ],
        { source: 'replay options' },
      );
    }
    const store = createRedisStore({ url });
    const knowledgeBase = createRedisKnowledgeBase({ url });
    return { store, knowledgeBase, location: url, close: () => closeAll(store, knowledgeBase) };
  }
  const dir =
    options.sqlitePath === undefined
      ? await mkdtemp(join(options.tempRoot ?? tmpdir(), 'mem-playground-'))
      : undefined;
  const path = options.sqlitePath ?? join(dir!, 'replay.sqlite');
  const store = createSqliteStore({ path });
  const knowledgeBase = createSqliteKnowledgeBase({ path });
  return {
    store,
    knowledgeBase,
    location: path,
    close: async () => {
      await closeAll(store, knowledgeBase);
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}

async function closeAll(store: Store, knowledgeBase: KnowledgeBase): Promise<void> {
  const results = await Promise.allSettled([store.close(), knowledgeBase.close()]);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
}
