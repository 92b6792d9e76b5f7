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
  },
});
