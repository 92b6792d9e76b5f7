import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@mem/source'] },
  ssr: { resolve: { conditions: ['@mem/source'] } },
  test: {
    include: ['*.test.ts'],
    testTimeout: 60_000,
  },
});
