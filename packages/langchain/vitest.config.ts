import { defineConfig } from 'vitest/config';

const node = Number(process.versions.node.split('.')[0]);

export default defineConfig({
  resolve: { conditions: ['@mem/source'] },
  ssr: { resolve: { conditions: ['@mem/source'] } },
  test: {
    include: ['src/**/*.test.ts'],
    exclude: node < 22 ? ['**/node_modules/**', '**/*.node22.test.ts'] : ['**/node_modules/**'],
    testTimeout: 60_000,
  },
});
