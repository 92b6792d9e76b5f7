import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@mem/source'] },
  ssr: { resolve: { conditions: ['@mem/source'] } },
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/__fixtures__/redis-servers.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
