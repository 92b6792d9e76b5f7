import type { KnowledgeBase, Store } from '@mem/core/backend';

/**
 * One place of a backend that no other test uses: a database file, a key prefix on a server, an
 * `InMemoryBackend`. Every store and knowledge base opened on it sees the same data.
 */
export interface EngineTestPlace {
  /** A new store on this place, as another process would open it (new connection or client). */
  store(options?: { namespace?: string }): Store;
  /** A new knowledge base on this place. */
  knowledgeBase(): KnowledgeBase;
}

/** Makes a fresh place; `label` is unique within the run (use it in a file name or key prefix). */
export type EnginePlaceFactory = (label: string) => EngineTestPlace | Promise<EngineTestPlace>;
