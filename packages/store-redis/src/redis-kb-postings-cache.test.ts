import { MemConfigError } from '@mem/core';
import type { KnowledgeBase } from '@mem/core/backend';
import { knowledgeChunk, TEST_COLLECTION } from '@mem/store-test-suite';
import { Cluster, Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { KB_ADD_BASELINE, KB_DELETE_BASELINE } from './__fixtures__/kb-baseline-lua.ts';
import { chunkOf, random } from './__fixtures__/random-chunks.ts';
import { addArguments } from './redis-kb-add-arguments.ts';
import { runKbScript } from './redis-kb-scripts.ts';
import { createRedisKnowledgeBase, kbKeys } from './redis-knowledge-base.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
let runs = 0;

const QUERIES = [
  'harbour ferry',
  'zebra harbour',
  'lantern orchid deploy quota',
  'walrus',
  'budget lisbon invoice refund tundra quartz meadow saffron ferry',
];

interface Fixture {
  client: Redis | Cluster;
  prefix: string;
  keys: string[];
  open(options?: {
    chunkCacheBytes?: number;
    postingsCacheBytes?: number;
    mirrorBytes?: number;
  }): KnowledgeBase;
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

function fixture(cluster: boolean): Fixture {
  runs += 1;
  const prefix = `kbpost${Date.now().toString(36)}${runs}`;
  const client = cluster ? new Cluster(nodes) : new Redis(url);
  cleanup.push(() => client.disconnect());
  return {
    client,
    prefix,
    keys: kbKeys(prefix, 'default', TEST_COLLECTION, 's1'),
    open(options = {}) {
      const connection =
        client instanceof Cluster ? { cluster: client } : { client: client as Redis };
      const kb = createRedisKnowledgeBase({ ...connection, prefix, ...options });
      cleanup.push(() => kb.close());
      return kb;
    },
  };
}

/** Ids and scores of every query's hits, in order. */
async function answers(kb: KnowledgeBase): Promise<[string, number][][]> {
  return Promise.all(
    QUERIES.map(async (query) =>
      (await kb.search(TEST_COLLECTION, query, { topK: 12, sessionId: 's1' })).map(
        (h): [string, number] => [h.chunk.id, h.score],
      ),
    ),
  );
}

/**
 * The same hits with the same scores up to the last bits of a float, in the same order except
 * among hits whose scores differ by less than that (a mirrored session is scored by the
 * in-memory index, which adds a score's parts in another order).
 */
function expectSame(
  actual: [string, number][][],
  expected: [string, number][][],
  context: string,
): void {
  actual.forEach((hits, q) => {
    const want = expected[q]!;
    expect(hits.length, context).toBe(want.length);
    const last = want.at(-1)?.[1] ?? 0;
    hits.forEach(([id, score], i) => {
      expect(score, context).toBeCloseTo(want[i]![1], 9);
      if (id === want[i]![0]) return;
      const same = want.find(([other]) => other === id);
      const near = same === undefined ? last : same[1];
      expect(Math.abs(near - score), `${context}: ${id} out of place`).toBeLessThan(1e-9);
    });
  });
}

describe.each([
  ['a Redis server', false],
  ['a Redis Cluster', true],
])('the postings a knowledge base keeps between searches, on %s', (_, cluster) => {
  it('answers exactly as a knowledge base that keeps none, through every kind of write by others', async () => {
    const seed = Number(process.env.MEM_POSTINGS_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const next = random(seed);
    const f = fixture(cluster);
    const reader = f.open(); // keeps postings and chunks
    const writer = f.open({ postingsCacheBytes: 0, chunkCacheBytes: 0 });
    const tiny = f.open({ postingsCacheBytes: 3_000 }); // evicts all the time
    let id = 0;
    const live: string[] = [];
    const kinds: string[] = [];
    for (let step = 0; step < 60; step++) {
      const roll = next();
      let kind: string;
      if (roll < 0.35 || live.length < 5) {
        kind = 'add';
        const batch = Array.from({ length: 1 + Math.floor(next() * 40) }, () =>
          chunkOf(`c${id++}`, next, next() < 0.1 ? `S${Math.floor(next() * 3)}` : undefined),
        );
        await (next() < 0.5 ? reader : writer).add(TEST_COLLECTION, batch);
        live.push(...batch.map((c) => c.id));
      } else if (roll < 0.5) {
        kind = 'replace';
        const target = live[Math.floor(next() * live.length)]!;
        await writer.add(TEST_COLLECTION, [chunkOf(target, next)]);
      } else if (roll < 0.6) {
        kind = 'delete messages';
        const doomed = live.filter(() => next() < 0.1);
        await writer.delete(TEST_COLLECTION, {
          sessionId: 's1',
          messageIds: doomed.map((c) => `m-${c}`),
        });
      } else if (roll < 0.67) {
        kind = 'delete summary';
        await writer.delete(TEST_COLLECTION, {
          sessionId: 's1',
          summaryIds: [`S${Math.floor(next() * 3)}`],
        });
      } else if (roll < 0.72) {
        kind = 'delete all';
        await writer.delete(TEST_COLLECTION, { sessionId: 's1' });
        live.length = 0;
      } else if (roll < 0.8) {
        // An earlier version's add: no epoch of its own, no counters, no blocks sealed.
        kind = 'earlier add';
        const batch = Array.from({ length: 1 + Math.floor(next() * 5) }, () =>
          chunkOf(`c${id++}`, next),
        );
        const args = batch.flatMap((chunk) => addArguments(chunk, ''));
        await runKbScript(f.client, KB_ADD_BASELINE, f.keys.slice(0, 7), [
          '',
          batch.length,
          ...args,
        ]);
        live.push(...batch.map((c) => c.id));
      } else if (roll < 0.85) {
        kind = 'earlier delete';
        const doomed = live.filter(() => next() < 0.1).map((c) => JSON.stringify(`m-${c}`));
        await runKbScript(f.client, KB_DELETE_BASELINE, f.keys.slice(0, 7), [
          'match',
          doomed.length,
          ...doomed,
          0,
        ]);
      } else {
        kind = 'none';
      }
      kinds.push(kind);
      const expected = await answers(writer);
      const context = `seed ${seed} (rerun with MEM_POSTINGS_SEED=${seed}), steps ${kinds.join(', ')}`;
      expectSame(await answers(reader), expected, context);
      expectSame(await answers(tiny), expected, context);
    }
  });

  it('reads only the entries added since, and still sees every chunk others add', async () => {
    const f = fixture(cluster);
    const reader = f.open({ mirrorBytes: 0 }); // a mirror would not read postings at all
    const writer = f.open({ postingsCacheBytes: 0, chunkCacheBytes: 0 });
    const next = random(7);
    await writer.add(
      TEST_COLLECTION,
      Array.from({ length: 4000 }, (_, i) => chunkOf(`c${i}`, next)),
    );
    const search = (kb: KnowledgeBase) =>
      kb.search(TEST_COLLECTION, 'harbour', { topK: 5000, sessionId: 's1' });
    const first = await search(reader);
    expect(first.length).toBeGreaterThan(100);
    // Double every stored term frequency of "harbour" behind the knowledge bases' backs (seq and
    // docs unchanged): a search that read the postings again would rank and score otherwise.
    const fields = await f.client.hgetall(f.keys[3]!);
    const blocks = Object.keys(fields).filter((k) => k === 'harbour' || /^harbour \d+$/.test(k));
    expect(blocks.length).toBeGreaterThan(1); // sealed blocks and the open one
    for (const field of blocks) {
      const doubled = fields[field]!.replace(/ (\d+):(\d+):/g, (_, d, tf) => ` ${d}:${tf * 2}:`);
      await f.client.hset(f.keys[3]!, field, doubled);
    }
    const changed = await search(writer);
    expect(changed.map((h) => h.score)).not.toEqual(first.map((h) => h.score));
    expect(await search(reader)).toEqual(first);

    // Another writer adds: the reader reads that entry alone (its other scores still undoubled),
    // and finds the new chunk.
    await writer.add(TEST_COLLECTION, [knowledgeChunk('new', 'harbour harbour harbour')]);
    const after = await search(reader);
    expect(after.map((h) => h.chunk.id)).toContain('new');
    const doubledScores = new Map((await search(writer)).map((h) => [h.chunk.id, h.score]));
    for (const hit of after.filter((h) => h.chunk.id !== 'new')) {
      expect(hit.score).toBeLessThan(doubledScores.get(hit.chunk.id)!);
    }
    // A removal anywhere in the session: the reader reads the whole postings again.
    await writer.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: ['m-c0'] });
    const fresh = f.open({ postingsCacheBytes: 0 });
    expect(await search(reader)).toEqual(await search(fresh));
    expect((await search(reader)).map((h) => h.score)).not.toEqual(first.map((h) => h.score));
  });

  it('reads the whole postings again of a session deleted whole and written again', async () => {
    const f = fixture(cluster);
    const reader = f.open();
    const writer = f.open({ postingsCacheBytes: 0, chunkCacheBytes: 0 });
    const add = (ids: string[], text: string) =>
      writer.add(
        TEST_COLLECTION,
        ids.map((id) => knowledgeChunk(id, text)),
      );
    const ids = (kb: KnowledgeBase) =>
      kb
        .search(TEST_COLLECTION, 'harbour', { topK: 10, sessionId: 's1' })
        .then((hits) => hits.map((h) => h.chunk.id).sort());
    await add(['a', 'b', 'c'], 'harbour ferry');
    expect(await ids(reader)).toEqual(['a', 'b', 'c']);
    // Written again with five chunks: `seq` and `docs` both grew by two since the reader's
    // version, as if two chunks had been added; only the epoch says the first three are gone.
    await writer.delete(TEST_COLLECTION, { sessionId: 's1' });
    await add(['d', 'e', 'f'], 'ferry only');
    await add(['g', 'h'], 'harbour again');
    expect(await f.client.hmget(f.keys[5]!, 'seq', 'docs')).toEqual(['5', '5']);
    expect(await ids(reader)).toEqual(['g', 'h']);
  });

  it('answers overlapping searches and adds on one knowledge base as one that keeps none', async () => {
    const f = fixture(cluster);
    const kb = f.open();
    const plain = f.open({ postingsCacheBytes: 0, chunkCacheBytes: 0 });
    const next = random(11);
    await kb.add(
      TEST_COLLECTION,
      Array.from({ length: 300 }, (_, i) => chunkOf(`c${i}`, next)),
    );
    const work: Promise<unknown>[] = [];
    for (let round = 0; round < 20; round++) {
      work.push(answers(kb));
      work.push(kb.add(TEST_COLLECTION, [chunkOf(`late${round}`, next)]));
      if (round % 7 === 3) {
        work.push(kb.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: [`m-c${round}`] }));
      }
    }
    await Promise.all(work);
    expectSame(await answers(kb), await answers(plain), 'after the overlapping calls');
  });
});

it('refuses a postingsCacheBytes that is not a whole number of bytes, naming it', () => {
  for (const postingsCacheBytes of [-1, 1.5, Number.NaN]) {
    let caught: unknown;
    try {
      createRedisKnowledgeBase({ url, postingsCacheBytes });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MemConfigError);
    expect((caught as MemConfigError).issues.map((i) => i.path)).toEqual(['postingsCacheBytes']);
  }
});
