import {
  type ConfigIssue,
  EMBEDDER_SPECIFICATION_VERSION,
  type Embedder,
  MemConfigError,
} from '@mem/core';
import type { Database } from 'better-sqlite3';
import {
  type CheckedSqliteStoreOptions,
  checkSqliteStoreOptions,
  type SqliteStoreOptions,
  type SqliteSynchronous,
} from './sqlite-store-options.ts';

/** How `search` ranks: BM25 over words, nearest vectors, or both fused (Reciprocal Rank Fusion). */
export type SqliteKnowledgeBaseRetrieval = 'lexical' | 'semantic' | 'hybrid';

interface SqliteKnowledgeBaseCommonOptions {
  /** The tenant: 1-64 letters, digits, `_` or `-`. Default `'default'`. */
  namespace?: string;
  /** How long a call waits in all (asynchronously) for another connection's lock, in ms. Default 5,000. */
  busyTimeoutMs?: number;
  /** Open for reading only (see `SqliteStoreOptions.readonly`). Default false. */
  readonly?: boolean;
  /** Durability of a commit (see the README). Default `'NORMAL'`. */
  synchronous?: SqliteSynchronous;
  /**
   * Embeds chunks on `add` and queries on `search` (vectors in a sqlite-vec `vec0` table). A
   * namespace keeps the vectors of one embedder (`id` and `dimensions`); another is refused.
   */
  embedder?: Embedder;
  /** Default `'hybrid'` with an `embedder`, else `'lexical'` (the only mode without one). */
  retrieval?: SqliteKnowledgeBaseRetrieval;
  /** The `k` of Reciprocal Rank Fusion, `score = Σ 1 / (rrfK + rank)`. Default 60. */
  rrfK?: number;
}

export type SqliteKnowledgeBaseOptions = SqliteKnowledgeBaseCommonOptions &
  ({ path: string; database?: never } | { database: Database; path?: never });

export interface CheckedSqliteKnowledgeBaseOptions extends CheckedSqliteStoreOptions {
  embedder: Embedder | undefined;
  retrieval: SqliteKnowledgeBaseRetrieval;
  rrfK: number;
}

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
  const given = (options ?? {}) as Partial<Record<keyof SqliteKnowledgeBaseCommonOptions, unknown>>;
  const { embedder, retrieval, rrfK } = given;
  if (embedder !== undefined) issues.push(...embedderIssues(embedder));
  if (retrieval !== undefined && !['lexical', 'semantic', 'hybrid'].includes(retrieval as string)) {
    issues.push({ path: 'retrieval', message: "expected 'lexical', 'semantic' or 'hybrid'" });
  } else if (embedder === undefined && (retrieval === 'semantic' || retrieval === 'hybrid')) {
    issues.push({
      path: 'embedder',
      message: `retrieval '${retrieval}' needs an embedder (an Embedder, spec ${EMBEDDER_SPECIFICATION_VERSION}); pass one, or use retrieval 'lexical'`,
    });
  }
  if (rrfK !== undefined && !(typeof rrfK === 'number' && Number.isFinite(rrfK) && rrfK >= 0)) {
    issues.push({ path: 'rrfK', message: 'expected a non-negative number (usually 60)' });
  }
  if (issues.length > 0 || store === undefined)
    throw new MemConfigError(issues, { source: SOURCE });
  return {
    ...store,
    embedder: embedder as Embedder | undefined,
    retrieval:
      (retrieval as SqliteKnowledgeBaseRetrieval | undefined) ??
      (embedder === undefined ? 'lexical' : 'hybrid'),
    rrfK: (rrfK as number | undefined) ?? 60,
  };
}

function embedderIssues(value: unknown): ConfigIssue[] {
  if (typeof value !== 'object' || value === null) {
    return [{ path: 'embedder', message: 'expected an Embedder object' }];
  }
  const e = value as Partial<Record<keyof Embedder, unknown>>;
  const issues: ConfigIssue[] = [];
  if (e.specificationVersion !== EMBEDDER_SPECIFICATION_VERSION) {
    issues.push({
      path: 'embedder.specificationVersion',
      message: `expected '${EMBEDDER_SPECIFICATION_VERSION}'`,
    });
  }
  if (typeof e.id !== 'string' || e.id.length === 0) {
    issues.push({ path: 'embedder.id', message: 'expected a non-empty string' });
  }
  if (!isCount(e.dimensions)) {
    issues.push({ path: 'embedder.dimensions', message: 'expected a positive integer' });
  }
  if (!isCount(e.maxBatchSize)) {
    issues.push({ path: 'embedder.maxBatchSize', message: 'expected a positive integer' });
  }
  if (typeof e.embed !== 'function') {
    issues.push({ path: 'embedder.embed', message: 'expected a function' });
  }
  return issues;
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}
