import { type ConfigIssue, MemConfigError } from '@mem/core';
import {
  type CheckedRetrievalOptions,
  checkRetrievalOptions,
  type KnowledgeRetrieval,
  type RetrievalOptions,
} from '@mem/core/backend';
import type { Database } from 'better-sqlite3';
import {
  type CheckedSqliteStoreOptions,
  checkSqliteStoreOptions,
  type SqliteStoreOptions,
  type SqliteSynchronous,
} from './sqlite-store-options.ts';

/** How `search` ranks (see `KnowledgeRetrieval` in `@mem/core`). */
export type SqliteKnowledgeBaseRetrieval = KnowledgeRetrieval;

interface SqliteKnowledgeBaseCommonOptions extends RetrievalOptions {
  /** The tenant: 1-64 letters, digits, `_` or `-`. Default `'default'`. */
  namespace?: string;
  /** How long a call waits in all (asynchronously) for another connection's lock, in ms. Default 5,000. */
  busyTimeoutMs?: number;
  /** Open for reading only (see `SqliteStoreOptions.readonly`). Default false. */
  readonly?: boolean;
  /** Durability of a commit (see the README). Default `'NORMAL'`. */
  synchronous?: SqliteSynchronous;
}

export type SqliteKnowledgeBaseOptions = SqliteKnowledgeBaseCommonOptions &
  ({ path: string; database?: never } | { database: Database; path?: never });

export interface CheckedSqliteKnowledgeBaseOptions
  extends CheckedSqliteStoreOptions,
    CheckedRetrievalOptions {}

const SOURCE = 'createSqliteKnowledgeBase options';

/** Options with defaults applied. @throws MemConfigError listing every bad option. */
export function checkSqliteKnowledgeBaseOptions(
  options: SqliteKnowledgeBaseOptions,
): CheckedSqliteKnowledgeBaseOptions {
  const issues: ConfigIssue[] = [];
  let store: CheckedSqliteStoreOptions | undefined;
  try {
    store = checkSqliteStoreOptions(options as SqliteStoreOptions, SOURCE);
  } catch (error) {
    if (!(error instanceof MemConfigError)) throw error;
    issues.push(...error.issues);
  }
  const retrieval = checkRetrievalOptions(options, issues);
  if (issues.length > 0 || store === undefined)
    throw new MemConfigError(issues, { source: SOURCE });
  return { ...store, ...retrieval };
}
