import { createInMemoryKnowledgeBase } from '@mem/core';
import type { KnowledgeBase } from '@mem/core/backend';
import { createRedisKnowledgeBase } from '@mem/store-redis';
import { createSqliteKnowledgeBase } from '@mem/store-sqlite';
import { type BenchQuery, sessionBatches } from './dialogue-chunks.ts';
import { openFtsFloor } from './fts-floor.ts';

/** What the bench compares: three knowledge bases and the FTS5 floor on the SQLite file. */
export const KINDS = ['memory', 'sqlite', 'redis', 'fts5'] as const;
export type Kind = (typeof KINDS)[number];

export const LABELS: Record<Kind, string> = {
  memory: 'in-memory (createInMemoryKnowledgeBase)',
  sqlite: 'SQLite file (createSqliteKnowledgeBase)',
  redis: 'Redis (createRedisKnowledgeBase)',
  fts5: 'floor: raw FTS5 bm25() on the SQLite file',
};

/** Chunks added per `add` call while building (one session's chunks at a time). */
export const ADD_BATCH = 1_000;

export const collectionFor = (size: number): string => `scale-${size}`;

/** One side of the comparison, open: `search` returns the hits' ids, best first. */
export interface Searcher {
  search(query: BenchQuery): Promise<string[]>;
  close(): Promise<void>;
}

/** Where each backend's knowledge base of a given size lives. */
export interface Places {
  sqlitePath: string;
  redisUrl: string;
}

/** Adds the `size` chunks to `kb` in batches (one session at a time). */
export async function fill(kb: KnowledgeBase, size: number): Promise<void> {
  const collection = collectionFor(size);
  for (const { chunks } of sessionBatches(size, ADD_BATCH)) await kb.add(collection, chunks);
}

export function knowledgeBaseSearcher(kb: KnowledgeBase, size: number): Searcher {
  const collection = collectionFor(size);
  return {
    async search(query) {
      const hits = await kb.search(collection, query.text, {
        topK: 10,
        ...(query.sessionId === undefined ? {} : { sessionId: query.sessionId }),
        ...(query.userId === undefined ? {} : { userId: query.userId }),
      });
      return hits.map((h) => `${h.chunk.metadata.sessionId}/${h.chunk.id}`);
    },
    close: () => kb.close(),
  };
}

export function openKnowledgeBase(kind: Exclude<Kind, 'fts5'>, places: Places): KnowledgeBase {
  if (kind === 'memory') return createInMemoryKnowledgeBase();
  if (kind === 'sqlite') return createSqliteKnowledgeBase({ path: places.sqlitePath });
  return createRedisKnowledgeBase({ url: places.redisUrl, commandTimeoutMs: 120_000 });
}

/**
 * Opens one side on an existing knowledge base of `size` chunks. The in-memory one has no
 * existing copy to open: it is built here from the chunks (as an app would at start-up).
 */
export async function openSearcher(kind: Kind, size: number, places: Places): Promise<Searcher> {
  if (kind === 'fts5') {
    const floor = openFtsFloor(places.sqlitePath);
    return {
      search: async (query) => floor.search(query).map((r) => String(r.rowid)),
      close: async () => floor.close(),
    };
  }
  const kb = openKnowledgeBase(kind, places);
  if (kind === 'memory') await fill(kb, size);
  return knowledgeBaseSearcher(kb, size);
}
