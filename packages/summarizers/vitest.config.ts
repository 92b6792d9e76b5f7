import { configDefaults, defineConfig } from 'vitest/config';

const nodeMajor = Number(process.versions.node.split('.')[0]);
// Tests that need Node >= 22 (ai 7, better-sqlite3 13, ...) are named *.node22.test.ts.
const node22Only = nodeMajor < 22 ? ['**/*.node22.test.ts'] : [];
// On Node 24, @mem/store-sqlite runs on better-sqlite3 13: 12 aborts there when the GC frees a
// statement (see packages/store-sqlite/README.md, Node.js versions).
const alias =
  nodeMajor >= 24 ? [{ find: /^better-sqlite3$/, replacement: 'better-sqlite3-v13' }] : [];

export default defineConfig({
  resolve: { conditions: ['@mem/source'], alias },
  ssr: { resolve: { conditions: ['@mem/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...node22Only],
    testTimeout: 60_000,
  },
});
