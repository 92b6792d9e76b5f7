import { runMultiProcessTests } from '@mem/store-test-suite/processes';
import { inject } from 'vitest';
import {
  clusterTarget,
  openWorkerStore,
  standaloneTarget,
  workerPlace,
} from './__fixtures__/open-store.ts';

/** A key prefix of this run only: the servers are shared with the other test files. */
const prefix = `multi-${process.pid}`;
const workerStore = new URL('./__fixtures__/open-store.ts', import.meta.url);

runMultiProcessTests('one standalone Redis session', {
  tag: 'redis standalone',
  workerStore,
  openStore: openWorkerStore,
  place: () => workerPlace(standaloneTarget(inject('redisPort')), prefix),
});

runMultiProcessTests('one Redis Cluster session', {
  tag: 'redis cluster',
  workerStore,
  openStore: openWorkerStore,
  place: () => workerPlace(clusterTarget(inject('clusterPorts')), prefix),
});
