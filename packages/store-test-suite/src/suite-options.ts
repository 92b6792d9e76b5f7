import type { Store } from '@mem/core/backend';

/**
 * Builds a store bound to `namespace`. Every call with the same namespace must see the same
 * sessions (one shared database, server or memory backend), and different namespaces must share
 * that backing data too, so the suite can prove they are isolated. May return a fresh instance
 * each time; the suite closes every store it opens.
 */
export type StoreFactory = (options: { namespace: string }) => Store | Promise<Store>;

/** How the suite builds a store with a TTL and lets time pass for it. */
export interface StoreSuiteTtl {
  /** The TTL the suite builds stores with; pick one your backend measures reliably. Default 1,000. */
  ttlMs?: number;
  /** Like `StoreFactory`, with `ttlMs` passed through to the backend. */
  create: (options: { namespace: string; ttlMs: number }) => Store | Promise<Store>;
  /** Lets `ms` milliseconds pass for the stores made by `create` (advance a fake clock, or sleep). */
  advance: (ms: number) => Promise<void>;
}

/** A backend's quirks. None of them skips a correctness check. */
export interface StoreSuiteOptions {
  /** Give this when the store supports TTL; without it the suite checks `capabilities.ttl === false`. */
  ttl?: StoreSuiteTtl;
  /** Runs after each group (for example, to delete a database file or flush a test server). */
  cleanup?: () => void | Promise<void>;
  /** Size of the concurrent-append test. Defaults: 8 writers x 25 appends each. */
  concurrency?: { writers?: number; appendsPerWriter?: number };
}
