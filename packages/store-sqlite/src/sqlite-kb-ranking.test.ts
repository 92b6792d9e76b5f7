import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryKnowledgeBase } from '@mem/core';
import type {
  KnowledgeBase,
  KnowledgeChunk,
  KnowledgeDeleteFilter,
  KnowledgeHit,
} from '@mem/core/backend';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeChunk } from './kb-terms.ts';
import { createSqliteKnowledgeBase } from './sqlite-knowledge-base.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-ranking-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COLLECTION = 'ranking';
// Few words, so that chunks share terms and scores tie; "the" and "of" are stopwords. More than
// the 8 query terms a search scores, so which ones are picked is compared too.
const WORDS = [
  'invoice',
  'refund',
  'porto',
  'train',
  'deploy',
  'rollback',
  'ramen',
  'locker',
  'friday',
  'berlin',
  'the',
  'of',
];
const words = (max: number) =>
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: max }).map((w) => w.join(' '));
const session = fc.constantFrom('s1', 's2');
// A chunk's user is drawn apart from its session, so every mix of the two filters is exercised.
const user = fc.constantFrom('u1', 'u2');

const chunk: fc.Arbitrary<KnowledgeChunk> = fc
  .record({
    id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
    sessionId: session,
    text: words(12),
    context: fc.option(words(6), { nil: undefined }),
    userId: fc.option(user, { nil: undefined }),
    createdAt: fc.integer({ min: 1, max: 3 }),
    message: fc.constantFrom('m1', 'm2', 'm3'),
  })
  .map(({ id, sessionId, userId, text, context, createdAt, message }) => ({
    id,
    text,
    ...(context === undefined ? {} : { context }),
    tokenCount: 1,
    metadata: {
      sessionId,
      ...(userId === undefined ? {} : { userId }),
      kind: 'archive' as const,
      messageIds: [message],
      createdAt,
    },
  }));

type Op =
  | { by: 'reader' | 'writer'; add: KnowledgeChunk[] }
  | { by: 'reader' | 'writer'; delete: KnowledgeDeleteFilter };
const by = fc.constantFrom('reader' as const, 'writer' as const);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ by, add: fc.array(chunk, { minLength: 1, maxLength: 6 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      by,
      delete: fc.oneof(
        session.map((sessionId): KnowledgeDeleteFilter => ({ sessionId })),
        fc.record({ sessionId: session, messageIds: fc.subarray(['m1', 'm2', 'm3']) }),
        user.map((userId): KnowledgeDeleteFilter => ({ userId })),
        fc.record({ sessionId: session, userId: user }),
      ),
    }),
  },
);
const query = fc.record({
  text: words(14),
  topK: fc.integer({ min: 1, max: 8 }),
  sessionId: fc.option(session, { nil: undefined }),
  userId: fc.option(user, { nil: undefined }),
});

const view = (hits: KnowledgeHit[]) =>
  hits.map((h) => {
    const { sessionId, userId } = h.chunk.metadata;
    return [h.rank, sessionId, userId, h.chunk.id, h.chunk.text, h.score];
  });

let run = 0;

/**
 * The BM25 statistics the file keeps for the namespace's collection equal those computed again
 * from its chunk rows.
 */
function expectStatisticsOf(path: string, namespace: string): void {
  const raw = new Database(path, { readonly: true });
  try {
    const collection = raw
      .prepare('SELECT id FROM mem_kb_collections WHERE namespace = ? AND collection_id = ?')
      .pluck()
      .get(namespace, COLLECTION) as number | undefined;
    if (collection === undefined) return;
    const chunks = raw
      .prepare('SELECT id, json FROM mem_kb_chunks WHERE collection = ?')
      .all(collection) as { id: number; json: string }[];
    let length = 0;
    const df = new Map<string, number>();
    for (const row of chunks) {
      const analyzed = analyzeChunk(JSON.parse(row.json) as KnowledgeChunk);
      length += analyzed.length;
      for (const term of analyzed.frequencies.keys()) df.set(term, (df.get(term) ?? 0) + 1);
    }
    const stats = raw
      .prepare('SELECT documents, length FROM mem_kb_stats WHERE collection = ?')
      .get(collection) ?? { documents: 0, length: 0 };
    expect(stats).toEqual({ documents: chunks.length, length });
    const stored = raw
      .prepare('SELECT term, documents FROM mem_kb_df WHERE collection = ? ORDER BY term')
      .all(collection) as { term: string; documents: number }[];
    expect(new Map(stored.map((r) => [r.term, r.documents]))).toEqual(df);
    const terms = raw
      .prepare('SELECT count(*) FROM mem_kb_terms WHERE collection = ?')
      .pluck()
      .get(collection);
    expect(terms).toBe(chunks.length);
  } finally {
    raw.close();
  }
}

describe('lexical rankings (and counts) equal the in-memory knowledge base', () => {
  it('for random corpora of several users, writes by this and another connection, and queries by session and user', async () => {
    const path = join(dir, 'ranking.db');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(op, fc.array(query, { minLength: 1, maxLength: 3 })), {
          minLength: 1,
          maxLength: 8,
        }),
        async (steps) => {
          const namespace = `run${run++}`;
          const reader = createSqliteKnowledgeBase({ path, namespace });
          const writer = createSqliteKnowledgeBase({ path, namespace });
          const memory = createInMemoryKnowledgeBase();
          const sqlite: Record<Op['by'], KnowledgeBase> = { reader, writer };
          try {
            for (const [step, queries] of steps) {
              if ('add' in step) {
                await sqlite[step.by].add(COLLECTION, step.add);
                await memory.add(COLLECTION, step.add);
              } else {
                const deleted = await sqlite[step.by].delete(COLLECTION, step.delete);
                expect(deleted).toBe(await memory.delete(COLLECTION, step.delete));
              }
              for (const { text, topK, sessionId, userId } of queries) {
                const options = {
                  topK,
                  ...(sessionId === undefined ? {} : { sessionId }),
                  ...(userId === undefined ? {} : { userId }),
                };
                expect(view(await reader.search(COLLECTION, text, options))).toEqual(
                  view(await memory.search(COLLECTION, text, options)),
                );
                const { topK: _all, ...count } = options;
                expect(await reader.count(COLLECTION, count)).toBe(
                  await memory.count(COLLECTION, count),
                );
              }
            }
            expectStatisticsOf(path, namespace);
          } finally {
            await Promise.all([reader.close(), writer.close(), memory.close()]);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
