export { appendTests } from './append-tests.ts';
export {
  badInputTests,
  INVALID_MESSAGES,
  INVALID_SESSION_IDS,
  ODD_SESSION_IDS,
} from './bad-input-tests.ts';
export { basicTests, richMessages } from './basic-tests.ts';
export { clearTests } from './clear-tests.ts';
export { compactionTests } from './compaction-tests.ts';
export { concurrencyTests } from './concurrency-tests.ts';
export { eraseTests } from './erase-tests.ts';
export { exportImportTests } from './export-import-tests.ts';
export {
  conversation,
  expectMemError,
  listAll,
  numbered,
  planCompaction,
  textMessage,
  uniqueId,
} from './fixtures.ts';
export { listTests } from './list-tests.ts';
export { namespaceTests } from './namespace-tests.ts';
export { replaceTests } from './replace-tests.ts';
export { runStoreTests, STORE_TEST_GROUPS } from './run-store-tests.ts';
export type { StoreFactory, StoreSuiteOptions, StoreSuiteTtl } from './suite-options.ts';
export { ttlTests } from './ttl-tests.ts';
