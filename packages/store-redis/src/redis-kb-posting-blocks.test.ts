import { createInMemoryKnowledgeBase } from '@mem/core';
import type { KnowledgeBase, KnowledgeChunk } from '@mem/core/backend';
import { knowledgeChunk, TEST_COLLECTION } from '@mem/store-test-suite';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { KB_ADD_BASELINE } from './__fixtures__/kb-baseline-lua.ts';
import { addArguments } from './redis-kb-add-arguments.ts';
import { runKbScript } from './redis-kb-scripts.ts';
import { createRedisKnowledgeBase, kbKeys } from './redis-knowledge-base.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
let runs = 0;

/** A small vocabulary, so common words get long postings (sealed blocks) quickly. */
const WORDS = ['harbour', 'ferry', 'budget', 'Lisbon', 'invoice', 'deploy', 'quota', 'refund'];
const RARE = ['zebra', 'lantern', 'orchid', 'walrus', 'tundra', 'quartz', 'meadow', 'saffron'];

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Chunk `i` of `session`: common words (some repeated) and now and then a rare one. */
function chunkAt(i: number, session: string, next: () => number, summaryId?: string) {
  const words: string[] = [];
  const length = 4 + Math.floor(next() * 10);
  for (let k = 0; k < length; k++) words.push(WORDS[Math.floor(next() * WORDS.length)]!);
  if (next() < 0.2) words.push(RARE[Math.floor(next() * RARE.length)]!);
  return knowledgeChunk(`${session}:${i}`, words.join(' '), {
    sessionId: session,
    kind: summaryId === undefined ? 'archive' : 'summary',
    createdAt: i % 7,
    messageIds: summaryId === undefined ? [`m${i}`] : [],
    ...(summaryId === undefined ? {} : { summaryId }),
  });
}

const QUERIES = [
  'harbour ferry',
  'budget invoice refund',
  'zebra harbour',
  'lantern orchid deploy quota',
  'walrus',
  `${WORDS.join(' ')} ${RARE.join(' ')}`,
];

let client: Redis;
let prefix: string;
const opened: KnowledgeBase[] = [];
beforeEach(() => {
  runs += 1;
  prefix = `kbblk${Date.now().toString(36)}${runs}`;
  client = new Redis(url);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((kb) => kb.close()));
  client.disconnect();
});
/**
 * The Redis knowledge base and in-memory references: one holding everything (for searches of
 * the whole collection) and one per session (a Redis search of one session uses that session's
 * statistics; the in-memory one uses its collection's).
 */
function both(sessions: readonly string[]) {
  const redis = createRedisKnowledgeBase({ client, prefix });
  const memory = createInMemoryKnowledgeBase();
  const bySession = new Map(sessions.map((id) => [id, createInMemoryKnowledgeBase()]));
  opened.push(redis, memory, ...bySession.values());
  const references = [memory, ...bySession.values()];
  return {
    redis,
    memory,
    bySession,
    /** Runs `change` on Redis and on every reference (each ignores other sessions' chunks). */
    async apply(change: (kb: KnowledgeBase, only?: string) => Promise<unknown>) {
      await change(redis);
      await change(memory);
      for (const [id, kb] of bySession) await change(kb, id);
    },
    references,
  };
}

/** Every query ranks and scores alike, over the collection and per session. */
async function expectSameRanking(kbs: ReturnType<typeof both>) {
  let hits = 0;
  const scopes = [
    { scope: {}, reference: kbs.memory },
    ...[...kbs.bySession].map(([sessionId, reference]) => ({ scope: { sessionId }, reference })),
  ];
  for (const query of QUERIES) {
    for (const { scope, reference } of scopes) {
      const options = { topK: 7, ...scope };
      const expected = await reference.search(TEST_COLLECTION, query, options);
      const actual = await kbs.redis.search(TEST_COLLECTION, query, options);
      const label = `${query} ${JSON.stringify(scope)}`;
      expect(
        actual.map((h) => h.chunk.id),
        label,
      ).toEqual(expected.map((h) => h.chunk.id));
      actual.forEach((hit, i) => {
        expect(hit.score, label).toBeCloseTo(expected[i]!.score, 9);
      });
      hits += actual.length;
    }
  }
  expect(hits).toBeGreaterThan(QUERIES.length * 7);
}

/** The chunks of `chunks` a reference for `only` (a session, or all) holds. */
const of = (chunks: readonly KnowledgeChunk[], only?: string) =>
  only === undefined ? chunks : chunks.filter((c) => c.metadata.sessionId === only);

/**
 * Checks the block layout of a session's postings: every directory's count is the number of
 * entries its sealed blocks hold, blocks hold increasing doc numbers that start at or after
 * their first, and no doc is in two places. Returns how many sealed blocks there are.
 */
async function checkBlocks(session: string): Promise<number> {
  const fields = await client.hgetall(kbKeys(prefix, 'default', TEST_COLLECTION, session)[3]!);
  let sealed = 0;
  for (const [field, directory] of Object.entries(fields)) {
    if (!field.startsWith(' ')) continue;
    const term = field.slice(1);
    const [count, ...firsts] = directory.trim().split(' ').map(Number);
    let entries = 0;
    let last = 0;
    firsts.forEach((first, k) => {
      const block = fields[`${term} ${k + 1}`] ?? '';
      const docs = block
        .split(' ')
        .filter((e) => e !== '')
        .map((e) => Number(e.split(':')[0]));
      for (const doc of docs) {
        expect(doc).toBeGreaterThan(last);
        expect(doc).toBeGreaterThanOrEqual(first);
        last = doc;
      }
      entries += docs.length;
      sealed += 1;
    });
    expect(entries, term).toBe(count);
    const open = (fields[term] ?? '').split(' ').filter((e) => e !== '');
    for (const entry of open) expect(Number(entry.split(':')[0])).toBeGreaterThan(last);
  }
  return sealed;
}

describe('posting blocks (Redis knowledge base)', () => {
  it('ranks like the in-memory knowledge base through adds, replacements and deletes that seal and cut blocks', async () => {
    const sessions = ['s1', 's2'];
    const kbs = both(sessions);
    const next = random(42);
    const chunks: KnowledgeChunk[] = [];
    for (let i = 0; i < 4000; i++) chunks.push(chunkAt(i, sessions[i % 3 === 0 ? 1 : 0]!, next));
    for (let i = 0; i < 40; i++) chunks.push(chunkAt(5000 + i, 's1', next, `S${i % 8}`));
    for (let i = 0; i < chunks.length; i += 500) {
      const batch = chunks.slice(i, i + 500);
      await kbs.apply(async (kb, only) => {
        if (of(batch, only).length > 0) await kb.add(TEST_COLLECTION, of(batch, only));
      });
    }
    expect(await checkBlocks('s1')).toBeGreaterThanOrEqual(WORDS.length);
    await expectSameRanking(kbs);

    // Deletes reach into sealed blocks (old docs) and the open ones (new docs); replacements
    // move a chunk to a new doc number at the end.
    const erased = Array.from({ length: 300 }, (_, k) => `m${(k * 37) % 4000}`);
    await kbs.apply(async (kb, only) => {
      for (const session of sessions) {
        if (only !== undefined && only !== session) continue;
        await kb.delete(TEST_COLLECTION, { sessionId: session, messageIds: erased });
      }
      if (only !== 's2') {
        await kb.delete(TEST_COLLECTION, { sessionId: 's1', summaryIds: ['S1', 'S5'] });
      }
    });
    const replaced = [3, 5, 700, 3995].map((i) => chunkAt(i, i % 3 === 0 ? 's2' : 's1', next));
    const more = Array.from({ length: 800 }, (_, k) => chunkAt(6000 + k, 's1', next));
    await kbs.apply(async (kb, only) => {
      await kb.add(TEST_COLLECTION, of([...replaced, ...more], only));
    });
    expect(await kbs.redis.count(TEST_COLLECTION)).toBe(await kbs.memory.count(TEST_COLLECTION));
    expect(await checkBlocks('s1')).toBeGreaterThan(WORDS.length);
    await checkBlocks('s2');
    await expectSameRanking(kbs);

    // Deleting every chunk of a session drops all its keys, blocks included.
    await kbs.apply(async (kb, only) => {
      if (only !== 's1') await kb.delete(TEST_COLLECTION, { sessionId: 's2' });
    });
    expect(await client.exists(...kbKeys(prefix, 'default', TEST_COLLECTION, 's2'))).toBe(0);
    kbs.bySession.delete('s2');
    await expectSameRanking(kbs);
  });

  it('takes over postings the previous version wrote in one field: sealed on the next add, cut like any block', async () => {
    const kbs = both(['s1']);
    const next = random(7);
    const keys = kbKeys(prefix, 'default', TEST_COLLECTION, 's1');
    const old = Array.from({ length: 1800 }, (_, i) => chunkAt(i, 's1', next));
    for (let i = 0; i < old.length; i += 300) {
      const batch = old.slice(i, i + 300);
      const args = batch.flatMap((chunk) => addArguments(chunk, ''));
      await runKbScript(client, KB_ADD_BASELINE, keys.slice(0, 7), ['', batch.length, ...args]);
      for (const kb of kbs.references) await kb.add(TEST_COLLECTION, batch);
    }
    expect(await checkBlocks('s1')).toBe(0);
    expect((await client.hget(keys[3]!, 'harbour'))!.length).toBeGreaterThan(8192);
    await expectSameRanking(kbs);

    const added = Array.from({ length: 60 }, (_, k) => chunkAt(3000 + k, 's1', next));
    await kbs.apply(async (kb) => {
      await kb.add(TEST_COLLECTION, added);
      await kb.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: ['m0', 'm900', 'm3030'] });
    });
    expect(await checkBlocks('s1')).toBeGreaterThanOrEqual(WORDS.length);
    expect((await client.hget(keys[3]!, 'harbour'))!.length).toBeLessThan(8192);
    await expectSameRanking(kbs);
  });
});
