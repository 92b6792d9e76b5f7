import { MemConfigError } from '@mem/core';
import { analyzeText, type KnowledgeBase, type KnowledgeChunk } from '@mem/core/backend';
import { knowledgeChunk, TEST_COLLECTION } from '@mem/store-test-suite';
import { Cluster, Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { KB_ADD_BASELINE, KB_DELETE_BASELINE } from './__fixtures__/kb-baseline-lua.ts';
import { chunkOf, random } from './__fixtures__/random-chunks.ts';
import { sleep } from './__fixtures__/redis-process.ts';
import { addArguments } from './redis-kb-add-arguments.ts';
import { SessionMirrors } from './redis-kb-mirror.ts';
import type { SessionScope } from './redis-kb-read.ts';
import { runKbScript } from './redis-kb-scripts.ts';
import { createRedisKnowledgeBase, kbKeys } from './redis-knowledge-base.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
let runs = 0;

const QUERIES = ['harbour ferry', 'zebra harbour', 'lantern orchid deploy quota', 'walrus'].map(
  (text) => [...new Set(analyzeText(text))],
);

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

interface Fixture {
  client: Redis | Cluster;
  keys: string[];
  scope: SessionScope;
  /** A knowledge base that keeps nothing in the client: what Redis holds, read afresh. */
  plain: KnowledgeBase;
  mirrors: SessionMirrors;
}

function fixture(cluster: boolean, mirrorBytes = 64_000_000): Fixture {
  runs += 1;
  const prefix = `kbmirror${Date.now().toString(36)}${runs}`;
  const client = cluster ? new Cluster(nodes) : new Redis(url);
  const connection = client instanceof Cluster ? { cluster: client } : { client: client as Redis };
  const plain = createRedisKnowledgeBase({
    ...connection,
    prefix,
    chunkCacheBytes: 0,
    postingsCacheBytes: 0,
    mirrorBytes: 0,
  });
  const mirrors = new SessionMirrors(mirrorBytes);
  cleanup.push(() => client.disconnect());
  cleanup.push(() => plain.close());
  cleanup.push(() => mirrors.close());
  const keys = kbKeys(prefix, 'default', TEST_COLLECTION, 's1');
  return { client, keys, scope: { sessionId: 's1', keys }, plain, mirrors };
}

/**
 * Searches the mirror until it answers: it is built in the background, after up to 64 searches
 * when it was dropped before. At most 30 s, for a loaded CI machine.
 */
async function mirrored(f: Fixture, terms: readonly string[], depth = 12) {
  const until = Date.now() + 30_000;
  for (let attempt = 0; Date.now() < until || attempt < 100; attempt++) {
    const hits = await f.mirrors.search(f.client, f.scope, terms, depth);
    if (hits !== undefined) return hits;
    await sleep(attempt < 100 ? 2 : 20);
  }
  throw new Error('the session was never mirrored');
}

/**
 * The mirror's answers equal a plain knowledge base's: the same chunks, scores to 9 digits, in
 * the same order except among hits whose scores differ by less than that (the mirror's index
 * adds a score's parts in another order, so a near-tie may fall either way).
 */
async function expectLikePlain(f: Fixture, context: string): Promise<void> {
  for (const terms of QUERIES) {
    const expected = await f.plain.search(TEST_COLLECTION, terms.join(' '), {
      topK: 12,
      sessionId: 's1',
    });
    const actual = await mirrored(f, terms);
    const where = `${context}, query ${terms.join(' ')}`;
    expect(actual.length, where).toBe(expected.length);
    const last = expected.at(-1)?.score ?? 0;
    actual.forEach((h, i) => {
      const want = expected[i]!;
      expect(h.item.score, where).toBeCloseTo(want.score, 9);
      if (h.item.chunk.id === want.chunk.id) {
        expect(h.item.chunk, where).toEqual(want.chunk);
        return;
      }
      const same = expected.find((e) => e.chunk.id === h.item.chunk.id);
      if (same === undefined) {
        // Only a near-tie at the cut lets another chunk in.
        expect(Math.abs(h.item.score - last), where).toBeLessThan(1e-9);
      } else {
        expect(Math.abs(same.score - h.item.score), where).toBeLessThan(1e-9);
        expect(h.item.chunk, where).toEqual(same.chunk);
      }
    });
  }
}

describe.each([
  ['a Redis server', false],
  ['a Redis Cluster', true],
])('a session mirrored in the client, on %s', (_, cluster) => {
  it('is built from the second search on, then searched in the client', async () => {
    const f = fixture(cluster);
    const next = random(3);
    await f.plain.add(
      TEST_COLLECTION,
      Array.from({ length: 1200 }, (_, i) => chunkOf(`c${i}`, next)),
    );
    // The first search of a session never builds a mirror: a process that searches once pays
    // for nothing more.
    expect(await f.mirrors.search(f.client, f.scope, ['harbour'], 5)).toBeUndefined();
    await sleep(50);
    expect(await f.mirrors.search(f.client, f.scope, ['harbour'], 5)).toBeUndefined();
    await expectLikePlain(f, 'built');

    // Searched in the client: with the postings gone from Redis (seq and docs unchanged), the
    // mirror still answers, while a plain search finds nothing.
    const before = await mirrored(f, ['harbour', 'zebra']);
    await f.client.del(f.keys[3]!);
    expect(
      await f.plain.search(TEST_COLLECTION, 'harbour zebra', { topK: 12, sessionId: 's1' }),
    ).toEqual([]);
    expect(await mirrored(f, ['harbour', 'zebra'])).toEqual(before);
  });

  it('answers exactly as a plain knowledge base through every kind of write, by this and other versions', async () => {
    const seed = Number(process.env.MEM_MIRROR_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const next = random(seed);
    const f = fixture(cluster);
    let id = 0;
    const live: string[] = [];
    const steps: string[] = [];
    const add = (n: number) => Array.from({ length: n }, () => chunkOf(`c${id++}`, next));
    const first = add(300);
    await f.plain.add(TEST_COLLECTION, first);
    live.push(...first.map((c) => c.id));
    await expectLikePlain(f, `seed ${seed}, start`);
    for (let step = 0; step < 40; step++) {
      const roll = next();
      if (roll < 0.3 || live.length < 5) {
        steps.push('add');
        const batch = add(1 + Math.floor(next() * 30));
        for (const c of batch) if (next() < 0.1) c.metadata.summaryId = `S${step % 3}`;
        await f.plain.add(TEST_COLLECTION, batch);
        live.push(...batch.map((c) => c.id));
      } else if (roll < 0.45) {
        steps.push('replace');
        const target = live[Math.floor(next() * live.length)]!;
        await f.plain.add(TEST_COLLECTION, [chunkOf(target, next)]);
      } else if (roll < 0.6) {
        steps.push('delete messages');
        const doomed = live.filter(() => next() < 0.05).map((c) => `m-${c}`);
        await f.plain.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: doomed });
      } else if (roll < 0.65) {
        steps.push('delete summary');
        await f.plain.delete(TEST_COLLECTION, { sessionId: 's1', summaryIds: [`S${step % 3}`] });
      } else if (roll < 0.7) {
        steps.push('delete all');
        await f.plain.delete(TEST_COLLECTION, { sessionId: 's1' });
        live.length = 0;
      } else if (roll < 0.8) {
        // An earlier version's add: no epoch, no removal log.
        steps.push('earlier add');
        const batch = add(1 + Math.floor(next() * 5));
        const args = batch.flatMap((chunk) => addArguments(chunk, ''));
        await runKbScript(f.client, KB_ADD_BASELINE, f.keys.slice(0, 7), [
          '',
          batch.length,
          ...args,
        ]);
        live.push(...batch.map((c) => c.id));
      } else if (roll < 0.85) {
        // An earlier version's delete: removes without logging it.
        steps.push('earlier delete');
        const doomed = live.filter(() => next() < 0.05).map((c) => JSON.stringify(`m-${c}`));
        await runKbScript(f.client, KB_DELETE_BASELINE, f.keys.slice(0, 7), [
          'match',
          doomed.length,
          ...doomed,
          0,
        ]);
      } else {
        steps.push('none');
      }
      if (live.length === 0 || (await f.client.hget(f.keys[5]!, 'epoch')) === null) {
        // A session written only by an earlier version has no epoch and is never mirrored.
        const batch = add(3);
        await f.plain.add(TEST_COLLECTION, batch);
        live.push(...batch.map((c) => c.id));
      }
      await expectLikePlain(
        f,
        `seed ${seed} (rerun with MEM_MIRROR_SEED=${seed}), steps ${steps.join(', ')}`,
      );
    }
  });

  it('catches up with the chunks others add and remove without reading the session again', async () => {
    const f = fixture(cluster);
    const next = random(5);
    await f.plain.add(
      TEST_COLLECTION,
      Array.from({ length: 200 }, (_, i) => chunkOf(`c${i}`, next)),
    );
    await expectLikePlain(f, 'built');
    // Rewrite a stored chunk's JSON behind everyone's back: only a mirror read again would see it.
    const doc = await f.client.hget(f.keys[0]!, JSON.stringify('c7'));
    const stored = JSON.parse((await f.client.hget(f.keys[1]!, doc!))!) as KnowledgeChunk;
    await f.client.hset(f.keys[1]!, doc!, JSON.stringify({ ...stored, text: `${stored.text} x` }));
    await f.plain.add(TEST_COLLECTION, [knowledgeChunk('new', 'walrus walrus harbour')]);
    await f.plain.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: ['m-c1', 'm-c2'] });
    const hits = await mirrored(f, ['harbour'], 500);
    const ids = hits.map((h) => h.item.chunk.id);
    expect(ids).toContain('new');
    expect(ids).not.toContain('c1');
    expect(hits.find((h) => h.item.chunk.id === 'c7')?.item.chunk.text).toBe(stored.text);
  });

  it('drops a mirror an earlier version removed from without logging, and builds it again', async () => {
    const f = fixture(cluster);
    const next = random(9);
    await f.plain.add(
      TEST_COLLECTION,
      Array.from({ length: 100 }, (_, i) => chunkOf(`c${i}`, next)),
    );
    await expectLikePlain(f, 'built');
    const doomed = ['m-c3', 'm-c4'].map((m) => JSON.stringify(m));
    await runKbScript(f.client, KB_DELETE_BASELINE, f.keys.slice(0, 7), ['match', 2, ...doomed, 0]);
    // The count no longer matches: this search reads Redis, and the mirror is built again later.
    expect(await f.mirrors.search(f.client, f.scope, ['harbour'], 5)).toBeUndefined();
    await expectLikePlain(f, 'rebuilt');
    const ids = (await mirrored(f, ['harbour'], 500)).map((h) => h.item.chunk.id);
    expect(ids).not.toContain('c3');
  });

  it('builds again a session deleted whole and written again, even to the same counts', async () => {
    const f = fixture(cluster);
    const add = (ids: string[], text: string) =>
      f.plain.add(
        TEST_COLLECTION,
        ids.map((id) => knowledgeChunk(id, text)),
      );
    await add(['a', 'b', 'c'], 'harbour ferry');
    const ids = async () => (await mirrored(f, ['harbour'])).map((h) => h.item.chunk.id).sort();
    expect(await ids()).toEqual(['a', 'b', 'c']);
    // Five chunks of two terms each: seq, docs and len all read as if two chunks were added to
    // the mirrored three; only the epoch says those three are gone.
    await f.plain.delete(TEST_COLLECTION, { sessionId: 's1' });
    await add(['d', 'e', 'f'], 'ferry dock');
    await add(['g', 'h'], 'harbour pier');
    expect(await f.client.hmget(f.keys[5]!, 'seq', 'docs', 'len')).toEqual(['5', '5', '10']);
    expect(await f.mirrors.search(f.client, f.scope, ['harbour'], 5)).toBeUndefined();
    expect(await ids()).toEqual(['g', 'h']);
  });

  it('builds again when more chunks were removed since than the removal log holds', async () => {
    const f = fixture(cluster);
    const next = random(21);
    await f.plain.add(
      TEST_COLLECTION,
      Array.from({ length: 1500 }, (_, i) => chunkOf(`c${i}`, next)),
    );
    await expectLikePlain(f, 'built');
    const doomed = Array.from({ length: 1400 }, (_, i) => `m-c${i}`);
    expect(await f.plain.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: doomed })).toBe(
      1400,
    );
    // The log keeps the newest ~4 kB of doc numbers: fewer than the 1,400 removed.
    const log = (await f.client.hget(f.keys[5]!, 'rlog'))!;
    expect(log.length).toBeLessThanOrEqual(4096);
    expect(log.trim().split(' ').length).toBeLessThan(1400);
    expect(await f.mirrors.search(f.client, f.scope, ['harbour'], 5)).toBeUndefined();
    await expectLikePlain(f, 'rebuilt');
  });

  it('never mirrors more than mirrorBytes', async () => {
    const f = fixture(cluster, 20_000);
    const next = random(13);
    await f.plain.add(
      TEST_COLLECTION,
      Array.from({ length: 200 }, (_, i) => chunkOf(`c${i}`, next)),
    );
    for (let i = 0; i < 20; i++) {
      expect(await f.mirrors.search(f.client, f.scope, ['harbour'], 5)).toBeUndefined();
      await sleep(5);
    }
  });
});

it('answers overlapping searches, adds and deletes on one knowledge base as a plain one', async () => {
  const prefix = `kbmirrorkb${Date.now().toString(36)}`;
  const kb = createRedisKnowledgeBase({ url, prefix });
  const plain = createRedisKnowledgeBase({
    url,
    prefix,
    chunkCacheBytes: 0,
    postingsCacheBytes: 0,
    mirrorBytes: 0,
  });
  cleanup.push(() => kb.close());
  cleanup.push(() => plain.close());
  const next = random(17);
  await kb.add(
    TEST_COLLECTION,
    Array.from({ length: 300 }, (_, i) => chunkOf(`c${i}`, next)),
  );
  const ask = (k: KnowledgeBase) =>
    Promise.all(
      QUERIES.map((terms) =>
        k.search(TEST_COLLECTION, terms.join(' '), { topK: 12, sessionId: 's1' }),
      ),
    );
  const work: Promise<unknown>[] = [];
  for (let round = 0; round < 30; round++) {
    work.push(ask(kb));
    work.push(kb.add(TEST_COLLECTION, [chunkOf(`late${round}`, next)]));
    if (round % 5 === 2) {
      work.push(kb.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: [`m-c${round}`] }));
    }
    if (round % 10 === 5) await sleep(20); // let the mirror build
  }
  await Promise.all(work);
  const [actual, expected] = [await ask(kb), await ask(plain)];
  expect(actual.map((hits) => hits.map((h) => h.chunk.id))).toEqual(
    expected.map((hits) => hits.map((h) => h.chunk.id)),
  );
});

it('refuses a mirrorBytes that is not a whole number of bytes, naming it', () => {
  for (const mirrorBytes of [-1, 1.5, Number.NaN]) {
    let caught: unknown;
    try {
      createRedisKnowledgeBase({ url, mirrorBytes });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MemConfigError);
    expect((caught as MemConfigError).issues.map((i) => i.path)).toEqual(['mirrorBytes']);
  }
});
