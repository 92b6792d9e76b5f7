import { configDefaults, defineConfig } from 'vitest/config';

// Tests that need Node >= 22 (ai 7, better-sqlite3 13, ...) are named *.node22.test.ts.
const node22Only = Number(process.versions.node.split('.')[0]) < 22 ? ['**/*.node22.test.ts'] : [];

export default defineConfig({
  resolve: { conditions: ['@mem/source'] },
  ssr: { resolve: { conditions: ['@mem/source'] } },
  test: {
    include: ['src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...node22Only],
    testTimeout: 60_000,
  },
});
