import { configDefaults, defineConfig } from 'vitest/config';

const nodeMajor = Number(process.versions.node.split('.')[0]);
// Mastra (@mastra/core, /memory, /libsql) needs Node >= 22.13: its test is *.node22.test.ts.
const node22Only = nodeMajor < 22 ? ['**/*.node22.test.ts'] : [];
// better-sqlite3 12 aborts on Node 24 when the GC finalizes a statement; 13 (Node-API) does not.
const alias =
  nodeMajor >= 24 ? [{ find: /^better-sqlite3$/, replacement: 'better-sqlite3-v13' }] : [];

export default defineConfig({
  resolve: { conditions: ['@mem/source'], alias },
  ssr: { resolve: { conditions: ['@mem/source'] } },
  test: {
    include: ['src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...node22Only],
    testTimeout: 30_000,
  },
});
