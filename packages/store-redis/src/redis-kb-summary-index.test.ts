import type { KnowledgeBase, KnowledgeChunk } from '@mem/core/backend';
import { knowledgeChunk, searchIds, TEST_COLLECTION } from '@mem/store-test-suite';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { KB_ADD_BASELINE, KB_DELETE_BASELINE } from './__fixtures__/kb-baseline-lua.ts';
import { addArguments } from './redis-kb-add-arguments.ts';
import { runKbScript } from './redis-kb-scripts.ts';
import { createRedisKnowledgeBase, kbKeys } from './redis-knowledge-base.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
let runs = 0;

/** Interaction chunks of session s1: `t0:0` … quoting messages `m0` …, about a harbour. */
const turns = (count: number, from = 0): KnowledgeChunk[] =>
  Array.from({ length: count }, (_, i) =>
    knowledgeChunk(`t${from + i}:0`, `lantern harbour ferry number ${from + i}`, {
      kind: 'archive',
      messageIds: [`m${from + i}`],
    }),
  );
/** The chunks of summary `id`: `id:0`, `id:1`, …, about a budget. */
const summary = (id: string, chunks = 2): KnowledgeChunk[] =>
  Array.from({ length: chunks }, (_, i) =>
    knowledgeChunk(`${id}:${i}`, `budget review quarter ${id} part ${i}`, { summaryId: id }),
  );

let client: Redis;
let kb: KnowledgeBase;
let keys: string[];
beforeEach(() => {
  runs += 1;
  const prefix = `kbidx${Date.now().toString(36)}${runs}`;
  client = new Redis(url);
  kb = createRedisKnowledgeBase({ client, prefix });
  keys = kbKeys(prefix, 'default', TEST_COLLECTION, 's1');
});
afterEach(async () => {
  await kb.close();
  client.disconnect();
});

/** The summary index as stored: summary id -> doc numbers. */
async function index(): Promise<Record<string, string[]>> {
  const raw = await client.hgetall(keys[7]!);
  return Object.fromEntries(
    Object.entries(raw).map(([sid, list]) => [JSON.parse(sid), list.trim().split(' ')]),
  );
}
async function trusted(): Promise<boolean> {
  const [seq, iseq] = await client.hmget(keys[5]!, 'seq', 'iseq');
  return seq !== null && seq === iseq;
}
const count = () => kb.count(TEST_COLLECTION, { sessionId: 's1' });
const deleteSummaries = (...summaryIds: string[]) =>
  kb.delete(TEST_COLLECTION, { sessionId: 's1', summaryIds });

/** What the previous version's add sent (seven keys, no summary index). */
async function baselineAdd(chunks: readonly KnowledgeChunk[]): Promise<void> {
  const args = chunks.flatMap((chunk) => addArguments(chunk, ''));
  await runKbScript(client, KB_ADD_BASELINE, keys.slice(0, 7), ['', chunks.length, ...args]);
}
/** What the previous version's delete sent. */
async function baselineDelete(args: (string | number)[]): Promise<number> {
  return Number(await runKbScript(client, KB_DELETE_BASELINE, keys.slice(0, 7), args));
}

describe('summary index (Redis knowledge base)', () => {
  it('indexes summary chunks as they are added and finds them for a compaction delete', async () => {
    await kb.add(TEST_COLLECTION, [...turns(5), ...summary('S1'), ...summary('S2', 3)]);
    expect(Object.keys(await index()).sort()).toEqual(['S1', 'S2']);
    expect((await index()).S2).toHaveLength(3);
    expect(await trusted()).toBe(true);

    expect(await deleteSummaries('S1')).toBe(2);
    expect(await count()).toBe(8);
    expect(Object.keys(await index())).toEqual(['S2']);
    expect(await searchIds(kb, 'budget review', { topK: 10 })).toEqual(
      expect.not.arrayContaining(['S1:0', 'S1:1']),
    );
    // A replaced chunk leaves the index under its old doc number and enters under the new one.
    await kb.add(TEST_COLLECTION, [knowledgeChunk('S2:0', 'budget again', { summaryId: 'S2' })]);
    expect((await index()).S2).toHaveLength(3);
    expect(await deleteSummaries('S2', 'S2', 'nope')).toBe(3);
    expect(await count()).toBe(5);
    expect(await index()).toEqual({});
  });

  it('is what a trusted delete reads: a chunk the index lacks is not looked for', async () => {
    // White-box: proves the delete takes the index and not the metadata scan.
    await kb.add(TEST_COLLECTION, [...turns(3), ...summary('S1')]);
    const [first] = (await index()).S1!;
    await client.hset(keys[7]!, JSON.stringify('S1'), ` ${first}`);
    expect(await deleteSummaries('S1')).toBe(1);
    expect(await count()).toBe(4);
  });

  it('never deletes a chunk because of a wrong index entry: the chunk must name the summary', async () => {
    await kb.add(TEST_COLLECTION, [...turns(4), ...summary('S1')]);
    const docs = await client.hgetall(keys[0]!);
    const others = ['t0:0', 't1:0', 't2:0'].map((id) => docs[JSON.stringify(id)]);
    const real = (await index()).S1!;
    await client.hset(keys[7]!, JSON.stringify('S1'), ` ${[...others, ...real, '9999'].join(' ')}`);
    expect(await deleteSummaries('S1')).toBe(2);
    expect(await count()).toBe(4);
    expect((await searchIds(kb, 'lantern harbour', { topK: 10 })).sort()).toEqual([
      't0:0',
      't1:0',
      't2:0',
      't3:0',
    ]);
  });

  describe('next to the previous version (rolling upgrade)', () => {
    it('a session it wrote: the first delete scans, removes the right chunks and builds the index', async () => {
      await baselineAdd([...turns(4), ...summary('S1'), ...summary('S2')]);
      expect(await index()).toEqual({});
      expect(await trusted()).toBe(false);

      expect(await deleteSummaries('S1')).toBe(2);
      expect(await count()).toBe(6);
      expect(Object.keys(await index())).toEqual(['S2']);
      expect(await trusted()).toBe(true);
      expect(await deleteSummaries('S2')).toBe(2);
      expect(await count()).toBe(4);
    });

    it('its add after ours: the index is no longer trusted and its summary is still found', async () => {
      await kb.add(TEST_COLLECTION, [...turns(3), ...summary('S1')]);
      await baselineAdd(summary('S2'));
      expect(Object.keys(await index())).toEqual(['S1']);
      expect(await trusted()).toBe(false);
      // Our add keeps it untrusted (it cannot know what the other one added).
      await kb.add(TEST_COLLECTION, summary('S3'));
      expect(await trusted()).toBe(false);

      expect(await deleteSummaries('S2')).toBe(2);
      expect(await trusted()).toBe(true);
      expect(Object.keys(await index()).sort()).toEqual(['S1', 'S3']);
      expect(await deleteSummaries('S1', 'S3')).toBe(4);
      expect(await count()).toBe(3);
    });

    it('its deletes leave stale entries that are skipped, and its drop does not reuse them', async () => {
      await kb.add(TEST_COLLECTION, [...turns(2), ...summary('S1'), ...summary('S2')]);
      expect(await baselineDelete(['match', 0, 1, JSON.stringify('S1')])).toBe(2);
      expect(Object.keys(await index()).sort()).toEqual(['S1', 'S2']);
      expect(await deleteSummaries('S1')).toBe(0);
      expect(await count()).toBe(4);

      // It drops the whole session (its seven keys): doc numbers start again at 1, while our
      // index key, which it does not know, still lists S2's old doc numbers.
      expect(await baselineDelete(['all'])).toBe(4);
      expect(await client.exists(keys[7]!)).toBe(1);
      await kb.add(TEST_COLLECTION, [...summary('S9'), ...turns(3), ...summary('S2', 1)]);
      expect(await deleteSummaries('S2')).toBe(1);
      expect((await searchIds(kb, 'lantern harbour', { topK: 10 })).sort()).toEqual([
        't0:0',
        't1:0',
        't2:0',
      ]);
      expect(await deleteSummaries('S9')).toBe(2);
      expect(await count()).toBe(3);
    });

    it('it still deletes and searches what we wrote', async () => {
      await kb.add(TEST_COLLECTION, [...turns(3), ...summary('S1')]);
      expect(await baselineDelete(['match', 1, JSON.stringify('m1'), 0])).toBe(1);
      expect(await baselineDelete(['match', 0, 1, JSON.stringify('S1')])).toBe(2);
      expect((await searchIds(kb, 'lantern harbour', { topK: 10 })).sort()).toEqual([
        't0:0',
        't2:0',
      ]);
      expect(await searchIds(kb, 'budget review', { topK: 10 })).toEqual([]);
    });
  });

  it('a delete by message ids (erasure) still scans and also rebuilds the index', async () => {
    await kb.add(TEST_COLLECTION, [...turns(3), ...summary('S1')]);
    await client.hdel(keys[7]!, JSON.stringify('S1'));
    expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: ['m0'] })).toBe(1);
    expect((await index()).S1).toHaveLength(2);
    expect(await deleteSummaries('S1')).toBe(2);
    expect(await count()).toBe(2);
  });
});
