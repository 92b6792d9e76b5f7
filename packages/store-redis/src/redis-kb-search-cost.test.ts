import { createInMemoryKnowledgeBase, MemConfigError } from '@mem/core';
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

const WORDS = ['harbour', 'ferry', 'budget', 'Lisbon', 'invoice', 'deploy', 'quota', 'refund'];
const RARE = ['zebra', 'lantern', 'orchid', 'walrus', 'tundra', 'quartz', 'meadow', 'saffron'];
const QUERIES = ['harbour ferry', 'zebra harbour', 'lantern orchid deploy quota', 'walrus'];

/** Chunk `i` of session s1: common words (long postings, sealed blocks) and now and then a rare one. */
function chunkAt(i: number, summaryId?: string): KnowledgeChunk {
  const words: string[] = [];
  for (let k = 0; k < 4 + ((i * 7) % 9); k++) words.push(WORDS[(i * 5 + k * 3) % WORDS.length]!);
  if (i % 5 === 0) words.push(RARE[(i / 5) % RARE.length]!);
  return knowledgeChunk(`c${i}`, words.join(' '), {
    sessionId: 's1',
    kind: summaryId === undefined ? 'archive' : 'summary',
    createdAt: i % 7,
    messageIds: summaryId === undefined ? [`m${i}`] : [],
    ...(summaryId === undefined ? {} : { summaryId }),
  });
}

let client: Redis;
let prefix: string;
let keys: string[];
const opened: KnowledgeBase[] = [];
beforeEach(() => {
  runs += 1;
  prefix = `kbcost${Date.now().toString(36)}${runs}`;
  keys = kbKeys(prefix, 'default', TEST_COLLECTION, 's1');
  client = new Redis(url);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((kb) => kb.close()));
  client.disconnect();
});
function open(options: { chunkCacheBytes?: number } = {}): KnowledgeBase {
  const kb = createRedisKnowledgeBase({ client, prefix, ...options });
  opened.push(kb);
  return kb;
}

/** Every query ranks and scores like the in-memory knowledge base holding the same chunks. */
async function expectRanksLike(redis: KnowledgeBase, memory: KnowledgeBase): Promise<void> {
  for (const query of QUERIES) {
    const options = { topK: 7, sessionId: 's1' };
    const expected = await memory.search(TEST_COLLECTION, query, options);
    const actual = await redis.search(TEST_COLLECTION, query, options);
    expect(
      actual.map((h) => h.chunk.id),
      query,
    ).toEqual(expected.map((h) => h.chunk.id));
    for (const [i, hit] of actual.entries()) {
      expect(hit.score, query).toBeCloseTo(expected[i]!.score, 9);
    }
  }
}

/** Each term's `term #` counter, and its entries counted in its open and sealed blocks. */
async function counters(): Promise<{
  kept: Record<string, number>;
  counted: Record<string, number>;
}> {
  const fields = await client.hgetall(keys[3]!);
  const kept: Record<string, number> = {};
  const counted: Record<string, number> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (field.endsWith(' #')) {
      kept[field.slice(0, -2)] = Number(value);
    } else if (!field.startsWith(' ')) {
      const term = field.split(' ')[0]!;
      counted[term] = (counted[term] ?? 0) + value.split(' ').filter((e) => e !== '').length;
    }
  }
  return { kept, counted };
}

async function stats(): Promise<(string | null)[]> {
  return client.hmget(keys[5]!, 'seq', 'docs', 'dmark');
}

describe('what a Redis knowledge-base search reads', () => {
  it('keeps each term’s document frequency exact through adds that seal blocks, replacements and deletes', async () => {
    const redis = open();
    const memory = createInMemoryKnowledgeBase();
    opened.push(memory);
    const chunks = Array.from({ length: 2500 }, (_, i) => chunkAt(i));
    chunks.push(...Array.from({ length: 30 }, (_, i) => chunkAt(3000 + i, `S${i % 3}`)));
    for (const kb of [redis, memory]) {
      for (let i = 0; i < chunks.length; i += 500) {
        await kb.add(TEST_COLLECTION, chunks.slice(i, i + 500));
      }
      await kb.add(TEST_COLLECTION, [chunkAt(3), chunkAt(1700)]);
      await kb.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: ['m0', 'm10', 'm2499'] });
      await kb.delete(TEST_COLLECTION, { sessionId: 's1', summaryIds: ['S1'] });
    }
    const { kept, counted } = await counters();
    expect(Object.keys(kept).length).toBe(WORDS.length + RARE.length);
    expect(kept).toEqual(counted);
    expect((await client.hget(keys[3]!, ' harbour'))?.split(' ').length).toBeGreaterThan(2);
    const [seq, docs, dmark] = await stats();
    expect(dmark).toBe(`${seq}:${docs}`);
    await expectRanksLike(redis, memory);
  });

  it('ranks a session an earlier version wrote, or wrote to, by counting its open blocks', async () => {
    const redis = open();
    const memory = createInMemoryKnowledgeBase();
    opened.push(memory);
    const first = Array.from({ length: 900 }, (_, i) => chunkAt(i));
    await redis.add(TEST_COLLECTION, first);
    await memory.add(TEST_COLLECTION, first);
    expect((await stats())[2]).toBe('900:900');

    // An earlier version's add moves `seq` without the mark: its counters are no longer trusted.
    const older = Array.from({ length: 300 }, (_, i) => chunkAt(900 + i));
    const args = older.flatMap((chunk) => addArguments(chunk, ''));
    await runKbScript(client, KB_ADD_BASELINE, keys.slice(0, 7), ['', older.length, ...args]);
    await memory.add(TEST_COLLECTION, older);
    const [seq, docs, dmark] = await stats();
    expect(dmark).not.toBe(`${seq}:${docs}`);
    await expectRanksLike(redis, memory);

    // Later writes of this version do not trust them again either.
    await redis.add(TEST_COLLECTION, [chunkAt(5000)]);
    await memory.add(TEST_COLLECTION, [chunkAt(5000)]);
    const [seq2, docs2, dmark2] = await stats();
    expect(dmark2).not.toBe(`${seq2}:${docs2}`);
    await expectRanksLike(redis, memory);
  });

  it('never answers from chunks of a session deleted whole and written again under the same ids', async () => {
    const reader = open();
    const writer = open({ chunkCacheBytes: 0 });
    const original = knowledgeChunk('c1', 'harbour ferry at dawn', { sessionId: 's1' });
    await writer.add(TEST_COLLECTION, [original]);
    const before = await reader.search(TEST_COLLECTION, 'harbour', { topK: 3, sessionId: 's1' });
    expect(before.map((h) => h.chunk.text)).toEqual(['harbour ferry at dawn']);
    const epoch = await client.hget(keys[5]!, 'epoch');
    expect(epoch).toMatch(/^[A-Za-z0-9_-]{16}$/);

    // Same chunk id, same doc number (1), other text: only the session's epoch tells them apart.
    await writer.delete(TEST_COLLECTION, { sessionId: 's1' });
    await writer.add(TEST_COLLECTION, [{ ...original, text: 'harbour closed for repairs' }]);
    expect(await client.hget(keys[0]!, JSON.stringify('c1'))).toBe('1');
    expect(await client.hget(keys[5]!, 'epoch')).not.toBe(epoch);
    const after = await reader.search(TEST_COLLECTION, 'harbour', { topK: 3, sessionId: 's1' });
    expect(after.map((h) => h.chunk.text)).toEqual(['harbour closed for repairs']);
  });

  it('keeps the chunks it adds in its cache, and still answers with what other writers wrote since', async () => {
    const kb = open();
    const other = open({ chunkCacheBytes: 0 });
    await kb.add(TEST_COLLECTION, [
      knowledgeChunk('c1', 'harbour ferry at dawn', { sessionId: 's1' }),
    ]);
    // Change the stored JSON behind the knowledge base's back: a search that read it would say so.
    const doc = await client.hget(keys[0]!, JSON.stringify('c1'));
    const stored = JSON.parse((await client.hget(keys[1]!, doc!))!) as KnowledgeChunk;
    await client.hset(keys[1]!, doc!, JSON.stringify({ ...stored, text: 'read from Redis' }));
    const search = (k: KnowledgeBase) =>
      k
        .search(TEST_COLLECTION, 'harbour', { topK: 3, sessionId: 's1' })
        .then((hits) => hits.map((h) => h.chunk.text));
    expect(await search(kb)).toEqual(['harbour ferry at dawn']);
    expect(await search(other)).toEqual(['read from Redis']);

    // Another writer replaces the chunk (a new doc number): the cached one is not served.
    await other.add(TEST_COLLECTION, [
      knowledgeChunk('c1', 'harbour ferry at noon', { sessionId: 's1' }),
    ]);
    expect(await search(kb)).toEqual(['harbour ferry at noon']);
    // Another writer deletes the session whole and writes it again (the same doc number 1, a new
    // epoch): the chunk this knowledge base added to the old session is not served either.
    await kb.add(TEST_COLLECTION, [knowledgeChunk('c2', 'harbour lights', { sessionId: 's1' })]);
    await other.delete(TEST_COLLECTION, { sessionId: 's1' });
    await other.add(TEST_COLLECTION, [knowledgeChunk('c9', 'harbour fog', { sessionId: 's1' })]);
    expect(await client.hget(keys[0]!, JSON.stringify('c9'))).toBe('1');
    expect(await search(kb)).toEqual(['harbour fog']);
  });

  it('hands out copies of cached chunks, so a caller that changes a hit changes no later search', async () => {
    const kb = open();
    await kb.add(TEST_COLLECTION, [knowledgeChunk('c1', 'harbour ferry', { messageIds: ['m1'] })]);
    const [first] = await kb.search(TEST_COLLECTION, 'harbour', { topK: 1, sessionId: 's1' });
    first!.chunk.text = 'changed';
    first!.chunk.metadata.messageIds.push('m2');
    const [second] = await kb.search(TEST_COLLECTION, 'harbour', { topK: 1, sessionId: 's1' });
    expect(second!.chunk.text).toBe('harbour ferry');
    expect(second!.chunk.metadata.messageIds).toEqual(['m1']);
  });

  it('refuses a chunkCacheBytes that is not a whole number of bytes, naming it', () => {
    for (const chunkCacheBytes of [-1, 1.5, Number.NaN]) {
      let caught: unknown;
      try {
        createRedisKnowledgeBase({ url, chunkCacheBytes });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(MemConfigError);
      expect((caught as MemConfigError).issues.map((i) => i.path)).toEqual(['chunkCacheBytes']);
    }
  });
});
