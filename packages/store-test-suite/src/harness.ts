import type { Store } from '@mem/core/backend';
import { afterAll, afterEach } from 'vitest';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
let namespaces = 0;

/** A namespace no other test (and no earlier run against a durable backend) has used. */
export function freshNamespace(): string {
  namespaces += 1;
  return `t${RUN}n${namespaces}`;
}

export interface StoreHarness {
  /** A store bound to `namespace` (default: a fresh one), closed after the test. */
  open(namespace?: string): Promise<Store>;
  /** A store built with the TTL options (only when `options.ttl` is given), closed after the test. */
  openWithTtl(namespace?: string): Promise<Store>;
}

/** Registers the hooks of one test group: close what each test opened, run `cleanup` at the end. */
export function useStores(createStore: StoreFactory, options: StoreSuiteOptions): StoreHarness {
  const opened: Store[] = [];
  afterEach(async () => {
    const stores = opened.splice(0);
    await Promise.all(stores.map((store) => store.close()));
  });
  afterAll(async () => {
    await options.cleanup?.();
  });
  const track = (store: Store) => {
    opened.push(store);
    return store;
  };
  return {
    open: async (namespace = freshNamespace()) => track(await createStore({ namespace })),
    openWithTtl: async (namespace = freshNamespace()) => {
      const { ttl } = options;
      if (ttl === undefined) throw new Error('openWithTtl needs options.ttl');
      return track(await ttl.create({ namespace, ttlMs: ttl.ttlMs ?? 1_000 }));
    },
  };
}
