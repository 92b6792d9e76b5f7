import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@mem/source'] },
  ssr: { resolve: { conditions: ['@mem/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    globalSetup: [],
  },
});
