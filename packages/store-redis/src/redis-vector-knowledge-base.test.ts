import type { KnowledgeBase } from '@mem/core/backend';
import { createWordVectorEmbedder } from '@mem/core/testing';
import {
  expectMemError,
  KNOWLEDGE_CORPUS,
  knowledgeChunk,
  runKnowledgeBaseTests,
  searchIds,
  TEST_COLLECTION,
} from '@mem/store-test-suite';
import { Cluster, Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { spaceKey } from './redis-kb-vectors.ts';
import { createRedisKnowledgeBase, kbKeys } from './redis-knowledge-base.ts';
import type { RedisKnowledgeBaseOptions } from './redis-knowledge-base-options.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
let runs = 0;
/** A key prefix no other test uses. */
const fresh = () => {
  runs += 1;
  return `kbv${Date.now().toString(36)}${runs}`;
};

const embedder = createWordVectorEmbedder();
const suitePrefix = fresh();
for (const retrieval of ['hybrid', 'semantic'] as const) {
  const semanticOnly = retrieval === 'semantic';
  runKnowledgeBaseTests(
    `redis, ${retrieval} with an embedder`,
    (options) =>
      createRedisKnowledgeBase({ url, prefix: suitePrefix, embedder, retrieval, ...options }),
    { semanticOnly },
  );
  runKnowledgeBaseTests(
    `redis cluster, ${retrieval} with an embedder`,
    (options) =>
      createRedisKnowledgeBase({ nodes, prefix: suitePrefix, embedder, retrieval, ...options }),
    { semanticOnly },
  );
}

const opened: KnowledgeBase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((kb) => kb.close()));
});
const client = new Redis(url);
afterAll(() => client.disconnect());
function kbOn(options: Partial<RedisKnowledgeBaseOptions> & { prefix: string }): KnowledgeBase {
  const kb = createRedisKnowledgeBase({ url, ...options } as RedisKnowledgeBaseOptions);
  opened.push(kb);
  return kb;
}

describe('createRedisKnowledgeBase with an embedder', () => {
  it('stores each vector at unit length as packed float32 beside its chunk, and binds the namespace', async () => {
    const prefix = fresh();
    const kb = kbOn({ prefix, embedder: createWordVectorEmbedder({ dimensions: 8, id: 'tiny' }) });
    expect(kb.capabilities).toEqual({ lexical: true, semantic: true, durable: true });
    await kb.add(TEST_COLLECTION, [knowledgeChunk('a', 'invoice invoice refund')]);
    const keys = kbKeys(prefix, 'default', TEST_COLLECTION, 's1');
    const vectors = await client.hgetallBuffer(keys[6]!);
    const packed = Object.values(vectors);
    expect(packed).toHaveLength(1);
    expect(packed[0]!.length).toBe(8 * 4);
    const values = Array.from({ length: 8 }, (_, i) => packed[0]!.readFloatLE(i * 4));
    expect(values.slice(0, 2)).toStrictEqual([
      Math.fround(2 / Math.sqrt(5)),
      Math.fround(1 / Math.sqrt(5)),
    ]);
    expect(await client.get(spaceKey(prefix, 'default'))).toBe('8:tiny');
    expect(await client.hget(keys[5]!, 'space')).toBe('8:tiny');
    // Replacing and deleting keep the vectors in step.
    await kb.add(TEST_COLLECTION, [knowledgeChunk('a', 'refund'), knowledgeChunk('b', 'bill')]);
    expect(await client.hlen(keys[6]!)).toBe(2);
    await kb.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: [] });
    expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1' })).toBe(2);
    expect(await client.exists(keys[6]!)).toBe(0);
  });

  it('refuses writes without the embedder to a namespace holding vectors, yet lets them read and delete', async () => {
    const prefix = fresh();
    const withVectors = kbOn({ prefix, embedder: createWordVectorEmbedder() });
    await withVectors.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
    const plain = kbOn({ prefix });
    expect(await searchIds(plain, 'AF-1042')).toStrictEqual(['billing:0']);
    const error = await expectMemError(plain.add(TEST_COLLECTION, KNOWLEDGE_CORPUS), 'MEM_CONFIG');
    expect(error.message).toContain('"test:hashing" (2048 dimensions)');
    const other = kbOn({ prefix, embedder: createWordVectorEmbedder({ id: 'other' }) });
    await expectMemError(other.add(TEST_COLLECTION, KNOWLEDGE_CORPUS.slice(0, 1)), 'MEM_CONFIG');
    // The script refuses too, atomically, when the namespace binding was not seen (a writer
    // without an embedder that read it just before the first vectors were written).
    const bound = spaceKey(prefix, 'default');
    await client.del(bound);
    const raced = plain.add(TEST_COLLECTION, KNOWLEDGE_CORPUS.slice(0, 1));
    expect((await expectMemError(raced, 'MEM_CONFIG')).message).toContain('pass that embedder');
    await client.set(bound, '2048:test:hashing');
    expect(await withVectors.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
    expect(await plain.delete(TEST_COLLECTION, { sessionId: 's1', summaryIds: ['sum1'] })).toBe(1);
    expect(await searchIds(withVectors, 'rail trip to Porto')).toStrictEqual([]);
    expect(await searchIds(withVectors, 'bill reimbursement')).toStrictEqual(['billing:0']);
  });

  it('searches every session of a collection on a cluster, and one session alone', async () => {
    const prefix = fresh();
    const kb = createRedisKnowledgeBase({
      nodes,
      prefix,
      embedder: createWordVectorEmbedder(),
      retrieval: 'semantic',
    });
    opened.push(kb);
    const sessions = Array.from({ length: 12 }, (_, i) => `s${i}`);
    for (const sessionId of sessions) {
      await kb.add(TEST_COLLECTION, [
        knowledgeChunk(`note:${sessionId}`, `invoice refund ticket ${sessionId}`, { sessionId }),
      ]);
    }
    await kb.add(TEST_COLLECTION, [
      knowledgeChunk('lone', 'a bill was paid twice', { sessionId: 'x' }),
    ]);
    const all = await kb.search(TEST_COLLECTION, 'bill reimbursement', { topK: 50 });
    expect(new Set(all.map((h) => h.chunk.metadata.sessionId)).size).toBe(13);
    const cluster = new Cluster(nodes);
    try {
      const slots = await Promise.all(
        sessions.map((id) =>
          cluster.call('CLUSTER', 'KEYSLOT', kbKeys(prefix, 'default', TEST_COLLECTION, id)[6]!),
        ),
      );
      expect(new Set(slots).size).toBeGreaterThan(1);
    } finally {
      cluster.disconnect();
    }
    const x = await kb.search(TEST_COLLECTION, 'invoice refund', { topK: 3, sessionId: 'x' });
    expect(x.map((h) => h.chunk.id)).toStrictEqual(['lone']);
  });
});
