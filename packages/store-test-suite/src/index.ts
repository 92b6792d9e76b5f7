export { appendTests } from './append-tests.ts';
export { arbitraryStringTests } from './arbitrary-strings-tests.ts';
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
export { flushTests } from './flush-tests.ts';
export { forgetUserTests } from './forget-user-tests.ts';
export { inputBoundsTests, nested, STORE_LIMITS } from './input-bounds-tests.ts';
export { knowledgeBaseAddTests } from './kb-add-tests.ts';
export { INVALID_COLLECTION_IDS, knowledgeBaseBadInputTests } from './kb-bad-input-tests.ts';
export { knowledgeBaseBasicTests } from './kb-basic-tests.ts';
export { knowledgeBaseDeleteTests } from './kb-delete-tests.ts';
export { knowledgeBaseEmbedderTests } from './kb-embedder-tests.ts';
export {
  KNOWLEDGE_CORPUS,
  knowledgeChunk,
  searchIds,
  TEST_COLLECTION,
} from './kb-fixtures.ts';
export { knowledgeBaseIsolationTests } from './kb-isolation-tests.ts';
export { knowledgeBaseSearchTests } from './kb-search-tests.ts';
export { knowledgeBaseSemanticTests } from './kb-semantic-tests.ts';
export type {
  KnowledgeBaseFactory,
  KnowledgeBaseFactoryOptions,
  KnowledgeBaseSuiteOptions,
} from './kb-suite-options.ts';
export { knowledgeBaseUserBadInputTests } from './kb-user-bad-input-tests.ts';
export { knowledgeBaseUserPropertyTests } from './kb-user-property-tests.ts';
export { knowledgeBaseUserTests, USER_CORPUS, userChunk } from './kb-user-tests.ts';
export { listTests } from './list-tests.ts';
export { namespaceTests } from './namespace-tests.ts';
export { popTests } from './pop-tests.ts';
export { replaceTests } from './replace-tests.ts';
export type {
  EnginePlaceFactory,
  EngineSuiteOptions,
  EngineTestPlace,
} from './run-engine-tests.ts';
export { runEngineTests } from './run-engine-tests.ts';
export {
  KNOWLEDGE_BASE_TEST_GROUPS,
  runKnowledgeBaseTests,
} from './run-knowledge-base-tests.ts';
export { runStoreTests, STORE_TEST_GROUPS } from './run-store-tests.ts';
export type { StoreFactory, StoreSuiteOptions, StoreSuiteTtl } from './suite-options.ts';
export { ttlTests } from './ttl-tests.ts';
export { userBindingTests } from './user-binding-tests.ts';
export { addFactWithRetry, userFact, userFactsTests } from './user-facts-tests.ts';
