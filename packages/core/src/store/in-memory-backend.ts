import type { SessionCounters, SessionState } from './in-memory-session.ts';
import type { UserFact } from './store-spec.ts';

/**
 * The data behind one or more in-memory stores. Give the same backend to several
 * `createInMemoryStore` calls to share sessions between them; stores with different namespaces on
 * one backend never see each other's sessions. Opaque: only `createInMemoryStore` reads it.
 */
export interface InMemoryBackend {
  readonly kind: 'mem.memory-backend';
}

/** A session, or what is left of it after `clear`: its counters, so they never go back. */
export type InMemoryEntry =
  | { kind: 'live'; state: SessionState; expiresAt: number | undefined }
  | ({ kind: 'cleared'; expiresAt: number | undefined } & SessionCounters);

/** A user's facts as the in-memory store keeps them (a tombstone: no facts, a version). */
export interface StoredUserFacts {
  version: number;
  facts: UserFact[];
}

export interface InMemoryNamespace {
  sessions: Map<string, InMemoryEntry>;
  /** User id -> its facts document (Store v3). */
  userFacts: Map<string, StoredUserFacts>;
  /** When expired entries were last swept (ms, the store's clock). */
  lastSweepAt: number;
}

const namespacesOf = new WeakMap<InMemoryBackend, Map<string, InMemoryNamespace>>();

/** A fresh, empty backend for `createInMemoryStore({ backend })`. */
export function createInMemoryBackend(): InMemoryBackend {
  const backend: InMemoryBackend = Object.freeze({ kind: 'mem.memory-backend' });
  namespacesOf.set(backend, new Map());
  return backend;
}

export function isInMemoryBackend(value: unknown): value is InMemoryBackend {
  return typeof value === 'object' && value !== null && namespacesOf.has(value as InMemoryBackend);
}

/** The sessions of one namespace of `backend`, created on first use. */
export function inMemoryNamespace(backend: InMemoryBackend, namespace: string): InMemoryNamespace {
  const namespaces = namespacesOf.get(backend);
  if (namespaces === undefined) throw new TypeError('not a memory backend');
  let data = namespaces.get(namespace);
  if (data === undefined) {
    data = { sessions: new Map(), userFacts: new Map(), lastSweepAt: Number.NEGATIVE_INFINITY };
    namespaces.set(namespace, data);
  }
  return data;
}
