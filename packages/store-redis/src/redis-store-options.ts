import { type ConfigIssue, MemConfigError } from '@mem/core';
import { namespaceOption } from '@mem/core/backend';
import type { Cluster, ClusterNode, Redis } from 'ioredis';

/** Where the store's data lives: one of these. */
export type RedisConnection =
  /** A `redis://` or `rediss://` URL; the store builds and owns a client. */
  | { url: string; client?: never; cluster?: never; nodes?: never }
  /** An existing ioredis client; the store never closes it. */
  | { client: Redis; url?: never; cluster?: never; nodes?: never }
  /** An existing ioredis Cluster; the store never closes it. */
  | { cluster: Cluster; url?: never; client?: never; nodes?: never }
  /** Seed nodes of a Redis Cluster; the store builds and owns a Cluster client. */
  | { nodes: ClusterNode[]; url?: never; client?: never; cluster?: never };

export type RedisStoreOptions = RedisConnection & {
  /** First part of every key (letters, digits, `_`, `-`, `.`; at most 64). Default `'mem'`. */
  prefix?: string;
  /** The tenant this store is bound to: 1-64 letters, digits, `_` or `-`. Default `'default'`. */
  namespace?: string;
  /** Sessions expire this many ms after their last write (PEXPIRE on every key). Default: never. */
  ttlMs?: number;
  /** Clock in ms since the epoch, for `createdAt` / `updatedAt`. Default `Date.now`. */
  now?: () => number;
  /**
   * For clients the store builds (`url`, `nodes`): a command that has no reply within this many
   * ms (for example because the server is down) fails with `MemStoreError`. Default 5,000.
   */
  commandTimeoutMs?: number;
};

export const DEFAULT_COMMAND_TIMEOUT_MS = 5_000;
const PREFIX = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export interface CheckedRedisStoreOptions {
  prefix: string;
  namespace: string;
  ttlMs: number | undefined;
  now: () => number;
  commandTimeoutMs: number;
}

/** Options with defaults applied. @throws MemConfigError listing every bad option. */
export function checkRedisStoreOptions(options: RedisStoreOptions): CheckedRedisStoreOptions {
  const issues: ConfigIssue[] = [];
  const given = [options.url, options.client, options.cluster, options.nodes].filter(
    (value) => value !== undefined,
  );
  if (given.length !== 1) {
    issues.push({ path: '(root)', message: 'pass exactly one of url, client, cluster or nodes' });
  }
  if (options.url !== undefined && !/^rediss?:\/\//.test(String(options.url))) {
    issues.push({ path: 'url', message: 'expected a redis:// or rediss:// URL' });
  }
  if (
    options.nodes !== undefined &&
    (!Array.isArray(options.nodes) || options.nodes.length === 0)
  ) {
    issues.push({ path: 'nodes', message: 'expected a non-empty array of cluster seed nodes' });
  }
  const prefix = options.prefix ?? 'mem';
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
    issues.push({
      path: 'prefix',
      message: 'use 1-64 letters, digits, "_", "-" or ".", starting with a letter or digit',
    });
  }
  const namespace = namespaceOption(options.namespace, issues);
  const { ttlMs, now, commandTimeoutMs } = options;
  if (ttlMs !== undefined && !(Number.isInteger(ttlMs) && ttlMs > 0)) {
    issues.push({ path: 'ttlMs', message: 'expected a positive integer number of milliseconds' });
  }
  if (now !== undefined && typeof now !== 'function') {
    issues.push({ path: 'now', message: 'expected a function returning ms since the epoch' });
  }
  if (
    commandTimeoutMs !== undefined &&
    !(Number.isInteger(commandTimeoutMs) && commandTimeoutMs > 0)
  ) {
    issues.push({
      path: 'commandTimeoutMs',
      message: 'expected a positive integer of milliseconds',
    });
  }
  if (issues.length > 0) throw new MemConfigError(issues, { source: 'createRedisStore options' });
  return {
    prefix,
    namespace,
    ttlMs,
    now: now ?? Date.now,
    commandTimeoutMs: commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
  };
}
