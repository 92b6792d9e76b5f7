import type { Store } from '@mem/core/backend';
import { createRedisStore } from '../redis-store.ts';

/**
 * The store of a worker process: `target` is a `redis://127.0.0.1:<port>` URL (standalone) or
 * `cluster:<port>,<port>,...` (the masters of a Redis Cluster on 127.0.0.1).
 */
export function openStore(target: string, prefix: string): Store {
  const commandTimeoutMs = 60_000;
  if (target.startsWith('cluster:')) {
    const nodes = target
      .slice('cluster:'.length)
      .split(',')
      .map((port) => ({ host: '127.0.0.1', port: Number(port) }));
    return createRedisStore({ nodes, prefix, commandTimeoutMs });
  }
  return createRedisStore({ url: target, prefix, commandTimeoutMs });
}

/** The target argument of the workers for the standalone server or the cluster. */
export const standaloneTarget = (port: number) => `redis://127.0.0.1:${port}`;
export const clusterTarget = (ports: readonly number[]) => `cluster:${ports.join(',')}`;

/** The place of the crash and multi-process tests: a target and a key prefix, as one argument. */
export const workerPlace = (target: string, prefix: string): string =>
  JSON.stringify({ target, prefix });

/** The store of the crash and multi-process tests (test process and workers) on a `workerPlace`. */
export function openWorkerStore(place: string): Store {
  const { target, prefix } = JSON.parse(place) as { target: string; prefix: string };
  return openStore(target, prefix);
}
