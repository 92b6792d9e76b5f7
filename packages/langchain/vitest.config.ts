import { defineConfig } from 'vitest/config';

const node = Number(process.versions.node.split('.')[0]);

// better-sqlite3 12 aborts on Node 24 when the GC finalizes a statement; 13 (Node-API) does not.
// So on Node 24 the SQLite store runs on 13 (see packages/store-sqlite/vitest.config.ts).
const alias =
  Number(process.versions.node.split('.')[0]) >= 24
    ? [{ find: /^better-sqlite3$/, replacement: 'better-sqlite3-v13' }]
    : [];

export default defineConfig({
  resolve: { conditions: ['@mem/source'], alias },
  ssr: { resolve: { conditions: ['@mem/source'] } },
  test: {
    include: ['src/**/*.test.ts'],
    exclude: node < 22 ? ['**/node_modules/**', '**/*.node22.test.ts'] : ['**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A standalone Redis and a 3-master Redis Cluster on loopback (the store-redis test setup).
    globalSetup: ['../store-redis/src/__fixtures__/redis-servers.ts'],
  },
});
