import { runCrashTests } from '@mem/store-test-suite/processes';
import { inject } from 'vitest';
import {
  clusterTarget,
  openWorkerStore,
  standaloneTarget,
  workerPlace,
} from './__fixtures__/open-store.ts';

/** A key prefix of this run only: the servers are shared with the other test files. */
const prefix = `crash-${process.pid}`;
const workerStore = new URL('./__fixtures__/open-store.ts', import.meta.url);

runCrashTests('a standalone Redis server', {
  tag: 'redis',
  workerStore,
  openStore: openWorkerStore,
  place: () => workerPlace(standaloneTarget(inject('redisPort')), prefix),
});

runCrashTests('a 3-master Redis Cluster', {
  tag: 'cluster',
  workerStore,
  openStore: openWorkerStore,
  place: () => workerPlace(clusterTarget(inject('clusterPorts')), prefix),
});
