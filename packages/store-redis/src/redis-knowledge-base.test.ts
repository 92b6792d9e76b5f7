import {
  createMemoryKnowledgeBase,
  KNOWLEDGE_BASE_SPECIFICATION_VERSION,
  type KnowledgeBase,
  type KnowledgeChunk,
  MemError,
  messageText,
} from '@mem/core';
import { generateConversation } from '@mem/core/testing';
import { Cluster } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createRedisKnowledgeBase, kbKeys } from './redis-knowledge-base.ts';
import type { RedisConnection } from './redis-store-options.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
const SERVERS: { name: string; connection: () => RedisConnection }[] = [
  { name: 'standalone Redis', connection: () => ({ url }) },
  { name: 'Redis Cluster', connection: () => ({ nodes }) },
];
const COLLECTION = 'session-memory';
let runs = 0;
/** A key prefix no other test uses. */
const fresh = () => {
  runs += 1;
  return `kb${Date.now().toString(36)}${runs}`;
};

function chunk(
  id: string,
  text: string,
  metadata: Partial<KnowledgeChunk['metadata']> = {},
): KnowledgeChunk {
  return {
    id,
    text,
    tokenCount: text.split(' ').length,
    metadata: { sessionId: 's1', kind: 'summary', messageIds: [], createdAt: 1, ...metadata },
  };
}

async function rejection(promise: Promise<unknown>): Promise<MemError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(MemError.isInstance(error), String(error)).toBe(true);
  return error as MemError;
}

const CORPUS: KnowledgeChunk[] = [
  chunk('weather:0', 'User asked about the weather in Lisbon; it will be sunny and 24 degrees.'),
  chunk('billing:0', 'Invoice 20931 was paid twice. The assistant opened refund ticket AF-1042.', {
    messageIds: ['m3', 'm4'],
  }),
  chunk('deploy:0', 'The deploy of the payments service failed; rollback to version 3.2 done.', {
    messageIds: ['m5'],
  }),
  chunk('lunch:0', "Alice's favourite lunch place is the ramen bar near the office.", {
    messageIds: ['m6'],
  }),
  chunk('travel:0', 'Booked a train to Porto for Friday morning, seat 42, coach 7.', {
    kind: 'archive',
    summaryId: 'sum1',
    messageIds: ['m7', 'm8'],
  }),
];

const opened: KnowledgeBase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((kb) => kb.close()));
});

describe('createRedisKnowledgeBase options', () => {
  it('lists every bad option in one MemConfigError', () => {
    expect.assertions(3);
    try {
      createRedisKnowledgeBase({ url: 'http://x', namespace: 'a b', prefix: '{p}' });
    } catch (error) {
      expect(MemError.isInstance(error) && error.code).toBe('MEM_CONFIG');
      expect((error as Error).message).toContain('createRedisKnowledgeBase options');
      expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toStrictEqual([
        'url',
        'prefix',
        'namespace',
      ]);
    }
  });

  it('connects lazily and reports an unreachable server as MEM_STORE', async () => {
    const kb = createRedisKnowledgeBase({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 500 });
    await expect(kb.count(COLLECTION)).rejects.toMatchObject({ code: 'MEM_STORE' });
    await kb.close();
  });
});

describe.each(SERVERS)('createRedisKnowledgeBase on $name', ({ connection }) => {
  function kbOn(options: { prefix?: string; namespace?: string } = {}): KnowledgeBase {
    const kb = createRedisKnowledgeBase({ ...connection(), prefix: fresh(), ...options });
    opened.push(kb);
    return kb;
  }
  async function seeded(): Promise<KnowledgeBase> {
    const kb = kbOn();
    await kb.add(COLLECTION, CORPUS);
    return kb;
  }
  async function ids(kb: KnowledgeBase, query: string, topK = 5, sessionId?: string) {
    const options = sessionId === undefined ? { topK } : { topK, sessionId };
    return (await kb.search(COLLECTION, query, options)).map((h) => h.chunk.id);
  }

  it('declares the spec version and its capabilities', () => {
    const kb = kbOn({ namespace: 'tenant_a' });
    expect(kb.specificationVersion).toBe(KNOWLEDGE_BASE_SPECIFICATION_VERSION);
    expect(kb.capabilities).toEqual({ lexical: true, semantic: false, durable: true });
    expect(kb.namespace).toBe('tenant_a');
    expect(kbOn().namespace).toBe('default');
  });

  it('ranks the relevant chunk first with BM25', async () => {
    const kb = await seeded();
    expect((await ids(kb, 'What happened with the refund for the invoice?'))[0]).toBe('billing:0');
    expect((await ids(kb, 'why did the payments deploy fail'))[0]).toBe('deploy:0');
    expect((await ids(kb, 'where does Alice like to eat lunch'))[0]).toBe('lunch:0');
    expect((await ids(kb, 'train to Porto'))[0]).toBe('travel:0');
    expect(await ids(kb, 'AF-1042')).toEqual(['billing:0']);
    expect(await ids(kb, 'af 1042')).toEqual(['billing:0']);
    expect(await ids(kb, 'AF-1042', 5, 's1')).toEqual(['billing:0']);
  });

  it('returns scores best first with ranks from 1, the same with and without sessionId for one session', async () => {
    const kb = await seeded();
    const hits = await kb.search(COLLECTION, 'ticket invoice deploy', { topK: 5 });
    expect(hits.map((h) => h.rank)).toEqual(hits.map((_, i) => i + 1));
    for (let i = 1; i < hits.length; i++) {
      expect(hits[i - 1]?.score).toBeGreaterThanOrEqual(hits[i]?.score as number);
    }
    expect(hits.every((h) => h.score > 0)).toBe(true);
    expect(
      await kb.search(COLLECTION, 'ticket invoice deploy', { topK: 5, sessionId: 's1' }),
    ).toEqual(hits);
  });

  it('honours topK, and breaks ties by newer chunk then smaller id', async () => {
    const kb = await seeded();
    const query = 'weather invoice deploy lunch train';
    expect(await ids(kb, query, 5)).toHaveLength(5);
    expect(await ids(kb, query, 2)).toHaveLength(2);
    expect(await ids(kb, query, 1)).toEqual((await ids(kb, query, 5)).slice(0, 1));
    await kb.add(COLLECTION, [
      chunk('tie:b', 'zebra crossing', { createdAt: 5 }),
      chunk('tie:a', 'zebra crossing', { createdAt: 5 }),
      chunk('tie:c', 'zebra crossing', { createdAt: 9 }),
    ]);
    expect(await ids(kb, 'zebra', 5)).toEqual(['tie:c', 'tie:a', 'tie:b']);
    expect(await ids(kb, 'zebra', 2)).toEqual(['tie:c', 'tie:a']);
  });

  it('returns nothing for an empty query, stopwords only, or no match', async () => {
    const kb = await seeded();
    expect(await ids(kb, '')).toEqual([]);
    expect(await ids(kb, 'the and of it')).toEqual([]);
    expect(await ids(kb, 'kubernetes')).toEqual([]);
    expect(await kb.search('unknown', 'invoice', { topK: 3 })).toEqual([]);
  });

  it('restricts to one session with sessionId', async () => {
    const kb = await seeded();
    await kb.add(COLLECTION, [chunk('billing:0', 'Invoice 777 is overdue.', { sessionId: 's2' })]);
    const all = await kb.search(COLLECTION, 'invoice', { topK: 5 });
    expect(all.map((h) => h.chunk.metadata.sessionId).sort()).toEqual(['s1', 's2']);
    const s2 = await kb.search(COLLECTION, 'invoice', { topK: 5, sessionId: 's2' });
    expect(s2.map((h) => h.chunk.text)).toEqual(['Invoice 777 is overdue.']);
    expect(await ids(kb, 'invoice', 5, 'nobody')).toEqual([]);
  });

  it('keeps collections, namespaces and prefixes apart (also collections sharing a prefix)', async () => {
    const prefix = fresh();
    const kb = kbOn({ prefix });
    await kb.add(COLLECTION, CORPUS);
    await kb.add(`${COLLECTION}:x`, [chunk('x:0', 'Invoice in another collection')]);
    await kb.add('other', [chunk('y:0', 'Invoice in a third collection')]);
    expect(await ids(kb, 'invoice')).toEqual(['billing:0']);
    expect(await kb.count(COLLECTION)).toBe(CORPUS.length);
    expect((await kb.search('other', 'invoice', { topK: 5 })).map((h) => h.chunk.id)).toEqual([
      'y:0',
    ]);
    const tenant = kbOn({ prefix, namespace: 'tenant_b' });
    expect(await tenant.count(COLLECTION)).toBe(0);
    expect(await tenant.search(COLLECTION, 'invoice', { topK: 5 })).toEqual([]);
    expect(await kbOn().count(COLLECTION)).toBe(0);
  });

  it('is durable: another instance on the same prefix sees the chunks', async () => {
    const prefix = fresh();
    await kbOn({ prefix }).add(COLLECTION, CORPUS);
    const again = kbOn({ prefix });
    expect(await again.count(COLLECTION)).toBe(CORPUS.length);
    expect(await ids(again, 'AF-1042')).toEqual(['billing:0']);
  });

  it('replaces a chunk re-added with the same session and id (the last of a batch wins)', async () => {
    const kb = await seeded();
    await kb.add(COLLECTION, [chunk('billing:0', 'The customer changed their shipping address.')]);
    expect(await kb.count(COLLECTION)).toBe(CORPUS.length);
    expect(await ids(kb, 'invoice refund')).toEqual([]);
    expect(await ids(kb, 'shipping address')).toEqual(['billing:0']);
    await kb.add(COLLECTION, [chunk('billing:0', 'Shipping was late.', { sessionId: 's2' })]);
    expect(await kb.count(COLLECTION)).toBe(CORPUS.length + 1);
    await kb.add(COLLECTION, [chunk('dup', 'first kiwi'), chunk('dup', 'second mango')]);
    expect(await ids(kb, 'kiwi')).toEqual([]);
    expect(await ids(kb, 'mango')).toEqual(['dup']);
  });

  it('rejects a bad batch as a whole, naming the path, and stores nothing of it', async () => {
    const kb = await seeded();
    const bad = [chunk('ok', 'pineapple'), { ...chunk('bad', 'x'), text: 42 }] as KnowledgeChunk[];
    const error = await rejection(kb.add(COLLECTION, bad));
    expect(error.code).toBe('MEM_VALIDATION');
    expect(error.message).toContain('chunks[1].text');
    expect(await ids(kb, 'pineapple')).toEqual([]);
    expect(await kb.count(COLLECTION)).toBe(CORPUS.length);
  });

  it('validates collection and session ids', async () => {
    const kb = kbOn();
    for (const bad of ['', 'a b', '*', '{x}', 'x'.repeat(129)]) {
      const error = await rejection(kb.count(bad));
      expect(error.code).toBe('MEM_VALIDATION');
    }
    expect((await rejection(kb.search(COLLECTION, 'x', { topK: 0 }))).code).toBe('MEM_VALIDATION');
    expect((await rejection(kb.delete(COLLECTION, { sessionId: '' }))).code).toBe('MEM_VALIDATION');
  });

  it('stores hostile session and chunk ids exactly, each apart from the others', async () => {
    const kb = kbOn();
    const hostile = ['*', '?', '{', '}', '{}', ':', '..', 'a}:d', '{x}:*', '😀 emoji', '%'];
    await kb.add(
      COLLECTION,
      hostile.map((id, i) => chunk(`${id}:${i}`, `walrus ${i} notes`, { sessionId: id })),
    );
    expect(await kb.count(COLLECTION)).toBe(hostile.length);
    for (const [i, id] of hostile.entries()) {
      expect(await kb.count(COLLECTION, { sessionId: id })).toBe(1);
      const hits = await kb.search(COLLECTION, 'walrus', { topK: 50, sessionId: id });
      expect(hits.map((h) => h.chunk.id)).toEqual([`${id}:${i}`]);
      expect(hits[0]!.chunk.metadata.sessionId).toBe(id);
    }
    expect(await kb.delete(COLLECTION, { sessionId: '*' })).toBe(1);
    expect(await kb.count(COLLECTION)).toBe(hostile.length - 1);
  });

  it('deletes a whole session, and its content is no longer found', async () => {
    const kb = await seeded();
    await kb.add(COLLECTION, [chunk('s2:0', 'Invoice 5 for session two', { sessionId: 's2' })]);
    expect(await kb.delete(COLLECTION, { sessionId: 's1' })).toBe(CORPUS.length);
    expect(await kb.count(COLLECTION, { sessionId: 's1' })).toBe(0);
    expect(await ids(kb, 'invoice refund ticket')).toEqual(['s2:0']);
    expect(await kb.delete(COLLECTION, { sessionId: 's1' })).toBe(0);
  });

  it('deletes by message ids: erased messages never come back through search', async () => {
    const kb = await seeded();
    expect(await kb.delete(COLLECTION, { sessionId: 's1', messageIds: ['m4', 'm99'] })).toBe(1);
    expect(await ids(kb, 'invoice refund AF-1042')).toEqual([]);
    expect(await kb.count(COLLECTION)).toBe(CORPUS.length - 1);
    expect(await kb.delete(COLLECTION, { sessionId: 's2', messageIds: ['m5'] })).toBe(0);
    expect(await kb.delete(COLLECTION, { sessionId: 's1', messageIds: [] })).toBe(0);
    // Every posting of a deleted chunk is gone: re-adding other text does not resurrect it.
    await kb.add(COLLECTION, [chunk('billing:0', 'Nothing about money.')]);
    expect(await ids(kb, 'invoice refund AF-1042')).toEqual([]);
  });

  it('deletes by summary ids, and by a summary id passed as a message id', async () => {
    const kb = await seeded();
    expect(await kb.delete(COLLECTION, { sessionId: 's1', summaryIds: ['sum1'] })).toBe(1);
    expect(await ids(kb, 'train Porto')).toEqual([]);
    await kb.add(COLLECTION, [
      chunk('sum2:0', 'Summary: the user plans a hike.', { summaryId: 'sum2' }),
    ]);
    expect(await kb.delete(COLLECTION, { sessionId: 's1', messageIds: ['sum2'] })).toBe(1);
    expect(await ids(kb, 'hike')).toEqual([]);
  });

  it('matches ids with any characters exactly, length-prefixed', async () => {
    const kb = kbOn();
    const odd = ['3:ab', '2:a', 'ü:1', '"', '\n'];
    await kb.add(
      COLLECTION,
      odd.map((id, i) => chunk(`c${i}`, `ostrich ${i}`, { messageIds: [id, `${id}x`] })),
    );
    expect(await kb.delete(COLLECTION, { sessionId: 's1', messageIds: ['2:a'] })).toBe(1);
    expect(await kb.delete(COLLECTION, { sessionId: 's1', messageIds: ['3:a'] })).toBe(0);
    expect(await kb.delete(COLLECTION, { sessionId: 's1', messageIds: ['ü:1x'] })).toBe(1);
    expect((await ids(kb, 'ostrich')).sort()).toEqual(['c0', 'c3', 'c4']);
  });

  it('counts per collection and per session, and drops the keys of an emptied session', async () => {
    const kb = await seeded();
    await kb.add(COLLECTION, [
      chunk('a', 'x', { sessionId: 's2' }),
      chunk('b', 'y', { sessionId: 's2' }),
    ]);
    expect(await kb.count(COLLECTION)).toBe(CORPUS.length + 2);
    expect(await kb.count(COLLECTION, { sessionId: 's1' })).toBe(CORPUS.length);
    expect(await kb.count(COLLECTION, { sessionId: 's2' })).toBe(2);
    expect(await kb.count('empty')).toBe(0);
    expect(await kb.delete(COLLECTION, { sessionId: 's2', messageIds: ['nope'] })).toBe(0);
    await kb.add(COLLECTION, [chunk('c', 'z', { sessionId: 's3', messageIds: ['m1'] })]);
    expect(await kb.delete(COLLECTION, { sessionId: 's3', messageIds: ['m1'] })).toBe(1);
    expect(await kb.count(COLLECTION, { sessionId: 's3' })).toBe(0);
    expect(await kb.count(COLLECTION)).toBe(CORPUS.length + 2);
  });

  it('returns copies and keeps none of the caller objects', async () => {
    const kb = kbOn();
    const input = chunk('c:0', 'Invoice 1', { messageIds: ['m1'] });
    await kb.add(COLLECTION, [input]);
    input.text = 'changed';
    input.metadata.messageIds.push('m2');
    const [hit] = await kb.search(COLLECTION, 'invoice', { topK: 1 });
    expect(hit?.chunk).toEqual(chunk('c:0', 'Invoice 1', { messageIds: ['m1'] }));
    if (hit !== undefined) {
      hit.chunk.text = 'mutated';
      hit.chunk.metadata.messageIds.push('m3');
    }
    const [again] = await kb.search(COLLECTION, 'invoice', { topK: 1 });
    expect(again?.chunk.text).toBe('Invoice 1');
    expect(again?.chunk.metadata.messageIds).toEqual(['m1']);
  });

  it('rejects every call after close', async () => {
    const kb = await seeded();
    await kb.close();
    expect((await rejection(kb.count(COLLECTION))).code).toBe('MEM_STORE');
    expect((await rejection(kb.search(COLLECTION, 'x', { topK: 1 }))).code).toBe('MEM_STORE');
    expect((await rejection(kb.add(COLLECTION, CORPUS))).code).toBe('MEM_STORE');
    expect((await rejection(kb.delete(COLLECTION, { sessionId: 's1' }))).code).toBe('MEM_STORE');
  });

  it('scores the most selective terms of a long question, so common words cannot drown it', async () => {
    const kb = kbOn();
    const common = 'order shipment customer invoice warehouse region budget meeting forecast';
    const filler = Array.from({ length: 40 }, (_, i) =>
      chunk(`filler:${i}`, `${common} quarter report number ${i}`),
    );
    await kb.add(COLLECTION, [...filler, chunk('needle:0', `${common} the zanzibar contract`)]);
    const hits = await kb.search(COLLECTION, `${common} zanzibar`, { topK: 1 });
    expect(hits.map((h) => h.chunk.id)).toEqual(['needle:0']);
  });
});

describe('agreement with the in-memory knowledge base', () => {
  it('ranks and scores a generated conversation like createMemoryKnowledgeBase', async () => {
    const messages = generateConversation({ interactions: 40, seed: 7, errorRate: 0.15 });
    const chunks = messages.map((m, i) =>
      chunk(`c${i}`, messageText(m) || 'empty', { createdAt: i % 5, messageIds: [m.id] }),
    );
    const memory = createMemoryKnowledgeBase();
    const redis = createRedisKnowledgeBase({ url, prefix: fresh() });
    opened.push(memory, redis);
    await memory.add(COLLECTION, chunks);
    await redis.add(COLLECTION, chunks);
    const queries = messages
      .filter((m) => m.role === 'user')
      .map((m) => messageText(m).split(/\s+/).slice(0, 5).join(' '));
    let found = 0;
    for (const query of queries) {
      for (const options of [{ topK: 4 }, { topK: 4, sessionId: 's1' }]) {
        const expected = await memory.search(COLLECTION, query, options);
        const actual = await redis.search(COLLECTION, query, options);
        found += actual.length;
        expect(
          actual.map((h) => h.chunk.id),
          query,
        ).toEqual(expected.map((h) => h.chunk.id));
        actual.forEach((hit, i) => {
          expect(hit.score).toBeCloseTo(expected[i]!.score, 9);
        });
      }
    }
    expect(found).toBeGreaterThan(queries.length * 2);
  });
});

describe('key layout on the cluster', () => {
  it('puts every key of a (collection, session) in one hash slot', async () => {
    const prefix = fresh();
    const kb = createRedisKnowledgeBase({ nodes, prefix });
    opened.push(kb);
    const cluster = new Cluster(nodes);
    try {
      for (const id of ['plain', '{tag}', '*', 'x'.repeat(512)]) {
        await kb.add(COLLECTION, [chunk('c', 'lantern harbour', { sessionId: id })]);
        const keys = kbKeys(prefix, 'default', COLLECTION, id);
        const slots = await Promise.all(
          keys.map((key) => cluster.call('CLUSTER', 'KEYSLOT', key) as Promise<number>),
        );
        expect(new Set(slots).size).toBe(1);
        const exists = await cluster.exists(keys[0]!);
        expect(exists).toBe(1);
      }
      expect(await kb.count(COLLECTION)).toBe(4);
    } finally {
      cluster.disconnect();
    }
  });
});
