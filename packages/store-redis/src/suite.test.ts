import { runStoreTests } from '@mem/store-test-suite';
import { inject } from 'vitest';
import { createRedisStore } from './redis-store.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const ttl = { ttlMs: 1_000, advance: sleep };

runStoreTests('redis', ({ namespace }) => createRedisStore({ url, namespace }), {
  ttl: { ...ttl, create: ({ namespace, ttlMs }) => createRedisStore({ url, namespace, ttlMs }) },
});

runStoreTests('redis cluster', ({ namespace }) => createRedisStore({ nodes, namespace }), {
  ttl: {
    ...ttl,
    create: ({ namespace, ttlMs }) => createRedisStore({ nodes, namespace, ttlMs }),
  },
});
