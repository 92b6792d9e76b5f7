import { runEngineTests } from '@mem/store-test-suite';
import { inject } from 'vitest';
import { createRedisKnowledgeBase } from './redis-knowledge-base.ts';
import { createRedisStore } from './redis-store.ts';
import type { RedisConnection } from './redis-store-options.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
const SERVERS: { name: string; connection: () => RedisConnection }[] = [
  { name: 'standalone Redis', connection: () => ({ url }) },
  { name: 'Redis Cluster', connection: () => ({ nodes }) },
];
let runs = 0;

// A place is a key prefix no other test uses; each store or knowledge base is a new client.
for (const { name, connection } of SERVERS) {
  runEngineTests(name, () => {
    runs += 1;
    const prefix = `e2e${Date.now().toString(36)}${runs}`;
    return {
      store: (options) => createRedisStore({ ...connection(), prefix, ...options }),
      knowledgeBase: () => createRedisKnowledgeBase({ ...connection(), prefix }),
    };
  });
}
