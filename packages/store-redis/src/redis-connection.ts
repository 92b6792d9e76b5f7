import { MemError, MemStoreError } from '@mem/core';
import { Cluster, Redis } from 'ioredis';
import type { LuaScript } from './lua-scripts.ts';
import type { RedisConnection } from './redis-store-options.ts';

/** The client a store talks through, and whether the store owns (and so closes) it. */
export interface RedisConnectionHandle {
  readonly client: Redis | Cluster;
  readonly owned: boolean;
}

/**
 * Builds the client for `url` / `nodes` (lazy: it connects on the first command) or wraps the
 * given one. Owned clients queue commands while (re)connecting, retry the connection forever
 * with a back-off capped at 1 s, and fail every command with no reply within `commandTimeoutMs`.
 */
export function openConnection(
  connection: RedisConnection,
  commandTimeoutMs: number,
): RedisConnectionHandle {
  const retryStrategy = (times: number) => Math.min(times * 100, 1_000);
  const common = {
    lazyConnect: true,
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.min(commandTimeoutMs, 10_000),
    maxRetriesPerRequest: 3,
  };
  if (connection.url !== undefined) {
    const client = new Redis(connection.url, { ...common, retryStrategy });
    client.on('error', ignore);
    return { client, owned: true };
  }
  if (connection.nodes !== undefined) {
    const client = new Cluster(connection.nodes, {
      lazyConnect: true,
      clusterRetryStrategy: retryStrategy,
      redisOptions: common,
    });
    client.on('error', ignore);
    return { client, owned: true };
  }
  if (connection.client !== undefined) return { client: connection.client, owned: false };
  if (connection.cluster !== undefined) return { client: connection.cluster, owned: false };
  throw new MemStoreError('[mem/redis] pass one of url, client, cluster or nodes.');
}

function ignore(): void {
  // Connection errors surface as rejected commands (see runScript); the client reconnects.
}

/** EVALSHA, falling back to EVAL (which also caches the script) when the server says NOSCRIPT. */
export async function runScript(
  client: Redis | Cluster,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  const rest = [keys.length, ...keys, ...args];
  try {
    return await client.call('EVALSHA', [script.sha, ...rest]);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
      return await client.call('EVAL', [script.lua, ...rest]);
    }
    throw error;
  }
}

/** Reads change nothing, so a failed one is simply retried. */
const READ = 'nothing was changed, so retry it as it is';

/**
 * What is true after an operation failed without a reply (connection lost, timeout, server
 * error), and what to do about it. Every write is one atomic script: all of it or none.
 */
const AFTER_FAILURE: Readonly<Record<string, string>> = {
  read: READ,
  info: READ,
  summaries: READ,
  archived: READ,
  list: READ,
  export: READ,
  userFacts: READ,
  search: READ,
  count: READ,
  append:
    'the append may or may not have been applied (all or nothing), so retry it with the same idempotency key: a retry never appends twice',
  compact:
    'the compaction may or may not have been applied (all or nothing); read the session: if its epoch is still expectedEpoch, retry it, otherwise it was applied or another writer won, so plan again',
  erase:
    'the erase may or may not have been applied (all or nothing); read the session: if its epoch is still expectedEpoch, retry it, otherwise it was applied or another writer won, so plan again',
  replace:
    'the replace may or may not have been applied (all or nothing); without expectedVersion retrying it is safe, with it read the session: if its version is still expectedVersion, retry it, otherwise it was applied or another writer won',
  clear:
    'the clear may or may not have been applied; clear is idempotent, so retry it (a retry after a clear that did apply returns false)',
  import:
    'the import may or may not have been applied (all or nothing); import overwrites the whole session, so retrying it is safe',
  writeUserFacts:
    "the write may or may not have been applied (all or nothing); read the user's facts: if their version is still expectedVersion, retry it, otherwise it was applied or another writer won, so re-apply your change to what you read",
  forgetUser:
    "forgetUser may have removed some of the user's sessions (each one whole, never half); run it again: it finishes the job",
  add: 'the add may or may not have been applied; adding a chunk again replaces it, so retrying it is safe',
  delete: 'the delete may or may not have been applied; deleting again is harmless, so retry it',
};

/**
 * Wraps anything that is not already a MemError (connection, timeout, server) as MemStoreError
 * whose message says what is true for `operation` (a read changed nothing; a write may or may
 * not have been applied) and how to retry it safely.
 */
export function storeError(operation: string, error: unknown): MemError {
  if (MemError.isInstance(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  const after = AFTER_FAILURE[operation] ?? 'it may or may not have been applied';
  return new MemStoreError(
    `[mem/redis] ${operation} failed: ${reason}. Check that Redis is reachable; ${after}.`,
    { cause: error },
  );
}

/**
 * Every key matching `pattern`, with SCAN (never KEYS), on the server or on every master of a
 * cluster.
 */
export async function scanKeys(client: Redis | Cluster, pattern: string): Promise<string[]> {
  let nodes: Redis[] = [client as Redis];
  if (client.isCluster) {
    const cluster = client as Cluster;
    if (cluster.nodes('master').length === 0) await cluster.ping();
    nodes = cluster.nodes('master');
  }
  const found: string[] = [];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000);
      found.push(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
  return found;
}
