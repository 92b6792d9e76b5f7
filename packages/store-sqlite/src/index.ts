export { MAX_QUERY_TERMS } from './fts-query.ts';
export { MIGRATIONS, SCHEMA_VERSION } from './migrations.ts';
export { createSqliteKnowledgeBase } from './sqlite-knowledge-base.ts';
export type {
  SqliteKnowledgeBaseOptions,
  SqliteKnowledgeBaseRetrieval,
} from './sqlite-knowledge-base-options.ts';
export { createSqliteStore } from './sqlite-store.ts';
export type {
  SqliteStoreDatabaseOptions,
  SqliteStoreOptions,
  SqliteStorePathOptions,
  SqliteSynchronous,
} from './sqlite-store-options.ts';
