import type { SessionCounters, SessionState } from './memory-session.ts';

/**
 * The data behind one or more in-memory stores. Give the same backend to several
 * `createMemoryStore` calls to share sessions between them; stores with different namespaces on
 * one backend never see each other's sessions. Opaque: only `createMemoryStore` reads it.
 */
export interface MemoryBackend {
  readonly kind: 'mem.memory-backend';
}

/** A session, or what is left of it after `clear`: its counters, so they never go back. */
export type MemoryEntry =
  | { kind: 'live'; state: SessionState; expiresAt: number | undefined }
  | ({ kind: 'cleared'; expiresAt: number | undefined } & SessionCounters);

export interface MemoryNamespace {
  sessions: Map<string, MemoryEntry>;
  /** When expired entries were last swept (ms, the store's clock). */
  lastSweepAt: number;
}

const namespacesOf = new WeakMap<MemoryBackend, Map<string, MemoryNamespace>>();

/** A fresh, empty backend for `createMemoryStore({ backend })`. */
export function createMemoryBackend(): MemoryBackend {
  const backend: MemoryBackend = Object.freeze({ kind: 'mem.memory-backend' });
  namespacesOf.set(backend, new Map());
  return backend;
}

export function isMemoryBackend(value: unknown): value is MemoryBackend {
  return typeof value === 'object' && value !== null && namespacesOf.has(value as MemoryBackend);
}

/** The sessions of one namespace of `backend`, created on first use. */
export function memoryNamespace(backend: MemoryBackend, namespace: string): MemoryNamespace {
  const namespaces = namespacesOf.get(backend);
  if (namespaces === undefined) throw new TypeError('not a memory backend');
  let data = namespaces.get(namespace);
  if (data === undefined) {
    data = { sessions: new Map(), lastSweepAt: Number.NEGATIVE_INFINITY };
    namespaces.set(namespace, data);
  }
  return data;
}
