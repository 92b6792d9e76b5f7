import { type ConfigIssue, MemConfigError } from '../errors/errors.ts';
import {
  createInMemoryBackend,
  type InMemoryBackend,
  isInMemoryBackend,
} from './in-memory-backend.ts';
import { namespaceOption } from './validate-ids.ts';

export interface InMemoryStoreOptions {
  /** The tenant this store is bound to: 1-64 letters, digits, `_` or `-`. Default `'default'`. */
  namespace?: string;
  /** Sessions expire this many ms after their last write. Default: never. */
  ttlMs?: number;
  /** Share sessions with other stores built on the same backend. Default: a private backend. */
  backend?: InMemoryBackend;
  /** Clock in ms since the epoch, for `createdAt`/`updatedAt` and TTL. Default `Date.now`. */
  now?: () => number;
}

/** Options with defaults applied. @throws MemConfigError listing every bad option. */
export function checkMemoryStoreOptions(options: InMemoryStoreOptions) {
  const issues: ConfigIssue[] = [];
  const namespace = namespaceOption(options.namespace, issues);
  const { ttlMs, backend, now } = options;
  if (ttlMs !== undefined && !(typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0)) {
    issues.push({ path: 'ttlMs', message: 'expected a positive number of milliseconds' });
  }
  if (backend !== undefined && !isInMemoryBackend(backend)) {
    issues.push({ path: 'backend', message: 'expected a backend made by createInMemoryBackend()' });
  }
  if (now !== undefined && typeof now !== 'function') {
    issues.push({ path: 'now', message: 'expected a function returning ms since the epoch' });
  }
  if (issues.length > 0)
    throw new MemConfigError(issues, { source: 'createInMemoryStore options' });
  return { namespace, ttlMs, backend: backend ?? createInMemoryBackend(), now: now ?? Date.now };
}
