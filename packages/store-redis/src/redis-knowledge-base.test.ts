import { createInMemoryKnowledgeBase, MemError } from '@mem/core';
import { type KnowledgeBase, messageText } from '@mem/core/backend';
import { generateConversation } from '@mem/core/testing';
import {
  KNOWLEDGE_CORPUS,
  knowledgeChunk,
  runKnowledgeBaseTests,
  searchIds,
  TEST_COLLECTION,
} from '@mem/store-test-suite';
import { Cluster, Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createRedisKnowledgeBase, kbKeys } from './redis-knowledge-base.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
let runs = 0;
/** A key prefix no other test uses. */
const fresh = () => {
  runs += 1;
  return `kb${Date.now().toString(36)}${runs}`;
};

// One prefix per run; the suite gives every test a fresh namespace under it.
const suitePrefix = fresh();
runKnowledgeBaseTests('redis', (options) =>
  createRedisKnowledgeBase({ url, prefix: suitePrefix, ...options }),
);
runKnowledgeBaseTests('redis cluster', (options) =>
  createRedisKnowledgeBase({ nodes, prefix: suitePrefix, ...options }),
);

const opened: KnowledgeBase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((kb) => kb.close()));
});
function kbOn(options: { prefix?: string; namespace?: string } = {}): KnowledgeBase {
  const kb = createRedisKnowledgeBase({ url, prefix: fresh(), ...options });
  opened.push(kb);
  return kb;
}

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

  it('declares durable lexical capabilities and namespace "default" unless given', () => {
    const kb = kbOn();
    expect(kb.capabilities).toEqual({ lexical: true, semantic: false, durable: true });
    expect(kb.namespace).toBe('default');
  });

  it('connects lazily and reports an unreachable server as MEM_STORE', async () => {
    const kb = createRedisKnowledgeBase({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 500 });
    await expect(kb.count(TEST_COLLECTION)).rejects.toMatchObject({ code: 'MEM_STORE' });
    await kb.close();
  });

  it('keeps prefixes apart on one server', async () => {
    const prefix = fresh();
    await kbOn({ prefix }).add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
    expect(await kbOn({ prefix }).count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
    expect(await kbOn().count(TEST_COLLECTION)).toBe(0);
    expect(await searchIds(kbOn(), 'AF-1042')).toEqual([]);
  });
});

describe('ranking details', () => {
  it('breaks equal scores by the newer chunk, then the smaller id', async () => {
    const kb = kbOn();
    await kb.add(TEST_COLLECTION, [
      knowledgeChunk('tie:b', 'zebra crossing', { createdAt: 5 }),
      knowledgeChunk('tie:a', 'zebra crossing', { createdAt: 5 }),
      knowledgeChunk('tie:c', 'zebra crossing', { createdAt: 9 }),
    ]);
    expect(await searchIds(kb, 'zebra')).toEqual(['tie:c', 'tie:a', 'tie:b']);
    expect(await searchIds(kb, 'zebra', { topK: 2 })).toEqual(['tie:c', 'tie:a']);
  });

  it('ranks and scores a generated conversation like createInMemoryKnowledgeBase', async () => {
    const messages = generateConversation({ interactions: 40, seed: 7, errorRate: 0.15 });
    const chunks = messages.map((m, i) =>
      knowledgeChunk(`c${i}`, messageText(m) || 'empty', { createdAt: i % 5, messageIds: [m.id] }),
    );
    const memory = createInMemoryKnowledgeBase();
    const redis = kbOn();
    opened.push(memory);
    await memory.add(TEST_COLLECTION, chunks);
    await redis.add(TEST_COLLECTION, chunks);
    const queries = messages
      .filter((m) => m.role === 'user')
      .map((m) => messageText(m).split(/\s+/).slice(0, 5).join(' '));
    let found = 0;
    for (const query of queries) {
      for (const options of [{ topK: 4 }, { topK: 4, sessionId: 's1' }]) {
        const expected = await memory.search(TEST_COLLECTION, query, options);
        const actual = await redis.search(TEST_COLLECTION, query, options);
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

describe('key layout', () => {
  it('drops the keys of an emptied session', async () => {
    const prefix = fresh();
    const kb = kbOn({ prefix });
    await kb.add(TEST_COLLECTION, [
      knowledgeChunk('c', 'z', { sessionId: 's3', messageIds: ['m1'] }),
    ]);
    const keys = kbKeys(prefix, 'default', TEST_COLLECTION, 's3');
    const client = new Redis(url);
    try {
      expect(await client.exists(...keys)).toBeGreaterThan(0);
      expect(await kb.delete(TEST_COLLECTION, { sessionId: 's3', messageIds: ['m1'] })).toBe(1);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 's3' })).toBe(0);
      expect(await client.exists(...keys)).toBe(0);
    } finally {
      client.disconnect();
    }
  });

  it('puts every key of a (collection, session) in one cluster hash slot', async () => {
    const prefix = fresh();
    const kb = createRedisKnowledgeBase({ nodes, prefix });
    opened.push(kb);
    const cluster = new Cluster(nodes);
    try {
      for (const id of ['plain', '{tag}', '*', 'x'.repeat(512)]) {
        await kb.add(TEST_COLLECTION, [knowledgeChunk('c', 'lantern harbour', { sessionId: id })]);
        const keys = kbKeys(prefix, 'default', TEST_COLLECTION, id);
        const slots = await Promise.all(
          keys.map((key) => cluster.call('CLUSTER', 'KEYSLOT', key) as Promise<number>),
        );
        expect(new Set(slots).size).toBe(1);
        expect(await cluster.exists(keys[0]!)).toBe(1);
      }
      expect(await kb.count(TEST_COLLECTION)).toBe(4);
    } finally {
      cluster.disconnect();
    }
  });
});
