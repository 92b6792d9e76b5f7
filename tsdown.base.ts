import { defineConfig, type UserConfig } from 'tsdown';

/** The one build setup every published package shares: ESM + .d.ts, checked by publint and attw. */
export function memPackageConfig(entry: string[], overrides: UserConfig = {}) {
  return defineConfig({
    entry,
    format: 'esm',
    platform: 'node',
    dts: true,
    clean: true,
    sourcemap: true,
    publint: { level: 'error' },
    attw: { profile: 'esm-only', level: 'error' },
    ...overrides,
  });
}
