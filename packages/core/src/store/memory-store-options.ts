import { type ConfigIssue, MemConfigError } from '../errors/errors.ts';
import { MemError } from '../errors/mem-error.ts';
import { createMemoryBackend, isMemoryBackend, type MemoryBackend } from './memory-backend.ts';
import { assertValidNamespace } from './validate-ids.ts';

export interface MemoryStoreOptions {
  /** The tenant this store is bound to: 1-64 letters, digits, `_` or `-`. Default `'default'`. */
  namespace?: string;
  /** Sessions expire this many ms after their last write. Default: never. */
  ttlMs?: number;
  /** Share sessions with other stores built on the same backend. Default: a private backend. */
  backend?: MemoryBackend;
  /** Clock in ms since the epoch, for `createdAt`/`updatedAt` and TTL. Default `Date.now`. */
  now?: () => number;
}

/** Options with defaults applied. @throws MemConfigError listing every bad option. */
export function checkMemoryStoreOptions(options: MemoryStoreOptions) {
  const issues: ConfigIssue[] = [];
  const namespace = options.namespace ?? 'default';
  try {
    assertValidNamespace(namespace);
  } catch (error) {
    if (!MemError.isInstance(error)) throw error;
    issues.push({
      path: 'namespace',
      message: 'use 1-64 letters, digits, "_" or "-", starting with a letter or digit',
    });
  }
  const { ttlMs, backend, now } = options;
  if (ttlMs !== undefined && !(typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0)) {
    issues.push({ path: 'ttlMs', message: 'expected a positive number of milliseconds' });
  }
  if (backend !== undefined && !isMemoryBackend(backend)) {
    issues.push({ path: 'backend', message: 'expected a backend made by createMemoryBackend()' });
  }
  if (now !== undefined && typeof now !== 'function') {
    issues.push({ path: 'now', message: 'expected a function returning ms since the epoch' });
  }
  if (issues.length > 0) throw new MemConfigError(issues, { source: 'createMemoryStore options' });
  return { namespace, ttlMs, backend: backend ?? createMemoryBackend(), now: now ?? Date.now };
}
