import { defineConfig } from 'vitest/config';

const nodeMajor = Number(process.versions.node.split('.')[0]);

export default defineConfig({
  resolve: { conditions: ['@mem/source'] },
  ssr: { resolve: { conditions: ['@mem/source'] } },
  test: {
    include: ['src/**/*.test.ts'],
    // ai 7 needs Node 22 or newer: its tests run there only.
    exclude:
      nodeMajor < 22 ? ['**/node_modules/**', '**/*.node22.test.ts'] : ['**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A standalone Redis and a 3-master Redis Cluster on loopback (the store-redis test setup):
    // every store-touching case runs on them too.
    globalSetup: ['../store-redis/src/__fixtures__/redis-servers.ts'],
  },
});
