import { describe } from 'vitest';
import { appendTests } from './append-tests.ts';
import { arbitraryStringTests } from './arbitrary-strings-tests.ts';
import { badInputTests } from './bad-input-tests.ts';
import { basicTests } from './basic-tests.ts';
import { clearTests } from './clear-tests.ts';
import { compactionTests } from './compaction-tests.ts';
import { concurrencyTests } from './concurrency-tests.ts';
import { eraseTests } from './erase-tests.ts';
import { exportImportTests } from './export-import-tests.ts';
import { flushTests } from './flush-tests.ts';
import { forgetUserTests } from './forget-user-tests.ts';
import { inputBoundsTests } from './input-bounds-tests.ts';
import { listTests } from './list-tests.ts';
import { namespaceTests } from './namespace-tests.ts';
import { popTests } from './pop-tests.ts';
import { replaceTests } from './replace-tests.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';
import { ttlTests } from './ttl-tests.ts';
import { userBindingTests } from './user-binding-tests.ts';
import { userFactsTests } from './user-facts-tests.ts';

/** Every group, in this order; each is also exported to run on its own. */
export const STORE_TEST_GROUPS = [
  basicTests,
  appendTests,
  compactionTests,
  concurrencyTests,
  eraseTests,
  popTests,
  replaceTests,
  flushTests,
  clearTests,
  listTests,
  exportImportTests,
  ttlTests,
  namespaceTests,
  userBindingTests,
  userFactsTests,
  forgetUserTests,
  badInputTests,
  inputBoundsTests,
  arbitraryStringTests,
] as const;

/**
 * Runs the whole Store conformance suite inside `describe(name)`. Call it from a test file:
 *
 * ```ts
 * runStoreTests('sqlite', ({ namespace }) => createSqliteStore({ file, namespace }));
 * ```
 */
export function runStoreTests(
  name: string,
  createStore: StoreFactory,
  options: StoreSuiteOptions = {},
): void {
  describe(`Store conformance: ${name}`, () => {
    for (const group of STORE_TEST_GROUPS) group(createStore, options);
  });
}
