import { createInMemoryBackend, createInMemoryStore } from '@mem/core';
import { runStoreTests } from './run-store-tests.ts';

// One backend for every namespace, so the namespace tests prove isolation on shared data.
const backend = createInMemoryBackend();
let clock = Date.now();

runStoreTests('memory', ({ namespace }) => createInMemoryStore({ namespace, backend }), {
  ttl: {
    ttlMs: 60_000,
    create: ({ namespace, ttlMs }) =>
      createInMemoryStore({ namespace, ttlMs, backend, now: () => clock }),
    advance: async (ms) => {
      clock += ms;
    },
  },
});
