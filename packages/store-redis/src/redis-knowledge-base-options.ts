import { type ConfigIssue, MemConfigError } from '@mem/core';
import {
  type CheckedRetrievalOptions,
  checkRetrievalOptions,
  type RetrievalOptions,
} from '@mem/core/backend';
import {
  type CheckedRedisStoreOptions,
  checkRedisStoreOptions,
  type RedisConnection,
} from './redis-store-options.ts';

export type RedisKnowledgeBaseOptions = RedisConnection &
  RetrievalOptions & {
    /** First part of every key: 1-64 letters, digits, `_`, `-` or `.`. Default `'mem'`. */
    prefix?: string;
    /** The tenant: 1-64 letters, digits, `_` or `-`. Default `'default'`. */
    namespace?: string;
    /** A command with no reply within this many ms fails. Default 5,000. */
    commandTimeoutMs?: number;
    /**
     * Chunks read by searches are kept in this client, up to about this many bytes of their
     * JSON, so a later search reads only hits it has not read before. Default 8,000,000; 0 keeps
     * none.
     */
    chunkCacheBytes?: number;
    /**
     * The postings of the terms searches scored are kept in this client, up to about this many
     * bytes (12 a chunk per term), so a later search of the same session reads only the entries
     * added since. Default 16,000,000; 0 keeps none (every search reads its terms' postings whole).
     */
    postingsCacheBytes?: number;
    /**
     * Sessions searched more than once are mirrored in this client (their chunks and a BM25
     * index of them, built in the background, then kept up to date by one small read per search),
     * up to about this many bytes together (four times their chunks' JSON), so their searches
     * run in memory. Default 64,000,000; 0 mirrors none.
     */
    mirrorBytes?: number;
  };

export type CheckedRedisKnowledgeBaseOptions = Pick<
  CheckedRedisStoreOptions,
  'prefix' | 'namespace' | 'commandTimeoutMs'
> &
  CheckedRetrievalOptions & {
    chunkCacheBytes: number;
    postingsCacheBytes: number;
    mirrorBytes: number;
  };

const DEFAULT_CHUNK_CACHE_BYTES = 8_000_000;
const DEFAULT_POSTINGS_CACHE_BYTES = 16_000_000;
const DEFAULT_MIRROR_BYTES = 64_000_000;

const SOURCE = 'createRedisKnowledgeBase options';

/** Options with defaults applied. @throws MemConfigError listing every bad option. */
export function checkRedisKnowledgeBaseOptions(
  options: RedisKnowledgeBaseOptions,
): CheckedRedisKnowledgeBaseOptions {
  const issues: ConfigIssue[] = [];
  let store: CheckedRedisStoreOptions | undefined;
  try {
    store = checkRedisStoreOptions(options);
  } catch (error) {
    if (!(error instanceof MemConfigError)) throw error;
    issues.push(...error.issues);
  }
  const retrieval = checkRetrievalOptions(options, issues);
  const {
    chunkCacheBytes = DEFAULT_CHUNK_CACHE_BYTES,
    postingsCacheBytes = DEFAULT_POSTINGS_CACHE_BYTES,
    mirrorBytes = DEFAULT_MIRROR_BYTES,
  } = options;
  if (!Number.isSafeInteger(chunkCacheBytes) || chunkCacheBytes < 0) {
    issues.push({
      path: 'chunkCacheBytes',
      message: 'must be a whole number of bytes, 0 or more (0 keeps no chunk in the client)',
    });
  }
  if (!Number.isSafeInteger(postingsCacheBytes) || postingsCacheBytes < 0) {
    issues.push({
      path: 'postingsCacheBytes',
      message: 'must be a whole number of bytes, 0 or more (0 keeps no postings in the client)',
    });
  }
  if (!Number.isSafeInteger(mirrorBytes) || mirrorBytes < 0) {
    issues.push({
      path: 'mirrorBytes',
      message: 'must be a whole number of bytes, 0 or more (0 mirrors no session in the client)',
    });
  }
  if (issues.length > 0 || store === undefined) {
    throw new MemConfigError(issues, { source: SOURCE });
  }
  const { prefix, namespace, commandTimeoutMs } = store;
  return {
    prefix,
    namespace,
    commandTimeoutMs,
    chunkCacheBytes,
    postingsCacheBytes,
    mirrorBytes,
    ...retrieval,
  };
}
