import type { ProcessTestBackend } from '@mem/store-test-suite/processes';
import { inject } from 'vitest';
import { clusterTarget, openWorkerStore, standaloneTarget, workerPlace } from './open-store.ts';

/**
 * The crash and multi-process tests' backends: the standalone server and the cluster of this run
 * (vitest `inject`), keys under `prefix` (the servers are shared with the other test files).
 */
export function redisProcessBackends(prefix: string): Array<[string, ProcessTestBackend]> {
  const on = (tag: string, target: () => string): ProcessTestBackend => ({
    tag,
    workerStore: new URL('./open-store.ts', import.meta.url),
    openStore: openWorkerStore,
    place: () => workerPlace(target(), prefix),
  });
  return [
    ['a standalone Redis server', on('redis', () => standaloneTarget(inject('redisPort')))],
    ['a 3-master Redis Cluster', on('cluster', () => clusterTarget(inject('clusterPorts')))],
  ];
}
