import type { ConfigIssue } from '../errors/errors.ts';
import { EMBEDDER_SPECIFICATION_VERSION, type Embedder } from './embedder-spec.ts';

/** How `search` ranks: BM25 over words, nearest vectors, or both fused (Reciprocal Rank Fusion). */
export type KnowledgeRetrieval = 'lexical' | 'semantic' | 'hybrid';

/** The retrieval options every knowledge base of mem takes (in-memory, SQLite, Redis). */
export interface RetrievalOptions {
  /**
   * Embeds chunks on `add` (purpose `document`, batched by `maxBatchSize`) and queries on
   * `search` (purpose `query`). A durable knowledge base binds a namespace to one embedder (`id`
   * and `dimensions`) and refuses another.
   */
  embedder?: Embedder;
  /** Default `'hybrid'` with an `embedder`, else `'lexical'` (the only mode without one). */
  retrieval?: KnowledgeRetrieval;
  /** The `k` of Reciprocal Rank Fusion, `score = Σ 1 / (rrfK + rank)`. Default 60. */
  rrfK?: number;
  /**
   * Semantic hits with a cosine similarity below this (-1..1) are dropped; in hybrid mode they
   * do not enter the fusion. Default: none, and only hits with a similarity above 0 are kept.
   */
  minSimilarity?: number;
}

export interface CheckedRetrievalOptions {
  embedder: Embedder | undefined;
  retrieval: KnowledgeRetrieval;
  rrfK: number;
  minSimilarity: number | undefined;
}

const MODES: readonly unknown[] = ['lexical', 'semantic', 'hybrid'];

/**
 * The retrieval options with defaults applied; every bad one is pushed onto `issues` (then the
 * returned value must not be used: throw a MemConfigError with the issues).
 */
export function checkRetrievalOptions(
  options: unknown,
  issues: ConfigIssue[],
): CheckedRetrievalOptions {
  const given = (typeof options === 'object' && options !== null ? options : {}) as Partial<
    Record<keyof RetrievalOptions, unknown>
  >;
  const { embedder, retrieval, rrfK, minSimilarity } = given;
  if (embedder !== undefined) issues.push(...embedderIssues(embedder));
  if (retrieval !== undefined && !MODES.includes(retrieval)) {
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
  if (
    minSimilarity !== undefined &&
    !(typeof minSimilarity === 'number' && minSimilarity >= -1 && minSimilarity <= 1)
  ) {
    issues.push({
      path: 'minSimilarity',
      message: 'expected a cosine similarity from -1 to 1 (e.g. 0.3), or leave it out',
    });
  }
  return {
    embedder: embedder as Embedder | undefined,
    retrieval:
      (retrieval as KnowledgeRetrieval | undefined) ??
      (embedder === undefined ? 'lexical' : 'hybrid'),
    rrfK: (rrfK as number | undefined) ?? 60,
    minSimilarity: minSimilarity as number | undefined,
  };
}

/** What is wrong with a value given as an `Embedder` (spec `mem.embedder.v1`), path `embedder.*`. */
export function embedderIssues(value: unknown): ConfigIssue[] {
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
