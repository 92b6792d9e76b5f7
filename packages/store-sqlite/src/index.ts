export { MAX_QUERY_TERMS } from './fts-query.ts';
export { MIGRATIONS, SCHEMA_VERSION } from './migrations.ts';
export type { SqliteKnowledgeBaseOptions } from './sqlite-knowledge-base.ts';
export { createSqliteKnowledgeBase } from './sqlite-knowledge-base.ts';
export { createSqliteStore } from './sqlite-store.ts';
export type {
  SqliteStoreDatabaseOptions,
  SqliteStoreOptions,
  SqliteStorePathOptions,
  SqliteSynchronous,
} from './sqlite-store-options.ts';
