import { describe, expect, it } from 'vitest';
import type { MemConfigError } from '../errors/errors.ts';
import { createWordVectorEmbedder } from '../testing/word-vector-embedder.ts';
import { chunk } from './__fixtures__/knowledge-chunks.ts';
import { createInMemoryKnowledgeBase } from './in-memory-knowledge-base.ts';

// The KnowledgeBase behaviours are checked by the conformance suite, which runs against this
// backend in @mem/store-test-suite (src/in-memory-knowledge-base.test.ts); here only what is
// particular to the in-memory knowledge base.

const COLLECTION = 'session-memory';

describe('createInMemoryKnowledgeBase', () => {
  it('declares lexical, non-durable capabilities and namespace "default" unless given', () => {
    const kb = createInMemoryKnowledgeBase({ namespace: 'tenant_a' });
    expect(kb.capabilities).toEqual({ lexical: true, semantic: false, durable: false });
    expect(kb.namespace).toBe('tenant_a');
    expect(createInMemoryKnowledgeBase().namespace).toBe('default');
  });

  it('rejects a bad namespace with a config error', () => {
    const error = (() => {
      try {
        createInMemoryKnowledgeBase({ namespace: 'a b' });
      } catch (e) {
        return e as MemConfigError;
      }
      return undefined;
    })();
    expect(error?.code).toBe('MEM_CONFIG');
    expect(error?.issues.map((i) => i.path)).toEqual(['namespace']);
  });

  it('keeps the data of each instance to itself, even on the same namespace', async () => {
    const kb = createInMemoryKnowledgeBase();
    await kb.add(COLLECTION, [chunk('x:0', 'Invoice one')]);
    const second = createInMemoryKnowledgeBase();
    expect(await second.count(COLLECTION)).toBe(0);
    expect(await second.search(COLLECTION, 'invoice', { topK: 5 })).toEqual([]);
    expect(await kb.count(COLLECTION)).toBe(1);
  });

  it('breaks equal scores by the newer chunk, then the smaller id', async () => {
    const kb = createInMemoryKnowledgeBase();
    await kb.add(COLLECTION, [
      chunk('tie:b', 'zebra crossing', { createdAt: 5 }),
      chunk('tie:a', 'zebra crossing', { createdAt: 5 }),
      chunk('tie:c', 'zebra crossing', { createdAt: 9 }),
    ]);
    const hits = await kb.search(COLLECTION, 'zebra', { topK: 5 });
    expect(hits.map((h) => h.chunk.id)).toEqual(['tie:c', 'tie:a', 'tie:b']);
  });

  it('declares semantic capabilities by retrieval mode with an embedder; hybrid is the default', () => {
    const embedder = createWordVectorEmbedder();
    const caps = (retrieval?: 'lexical' | 'semantic' | 'hybrid') =>
      createInMemoryKnowledgeBase({ embedder, ...(retrieval && { retrieval }) }).capabilities;
    expect(caps()).toEqual({ lexical: true, semantic: true, durable: false });
    expect(caps('semantic')).toEqual({ lexical: false, semantic: true, durable: false });
    expect(caps('lexical')).toEqual({ lexical: true, semantic: false, durable: false });
  });

  it('does not call the embedder in lexical mode, whose vectors nothing would read', async () => {
    const embedder = createWordVectorEmbedder();
    const kb = createInMemoryKnowledgeBase({ embedder, retrieval: 'lexical' });
    await kb.add(COLLECTION, [chunk('a', 'invoice refund')]);
    expect((await kb.search(COLLECTION, 'refund', { topK: 1 })).map((h) => h.chunk.id)).toEqual([
      'a',
    ]);
    expect(embedder.calls).toEqual([]);
  });

  it('lists every bad option in one config error', () => {
    expect.assertions(2);
    try {
      createInMemoryKnowledgeBase({
        namespace: 'a b',
        retrieval: 'semantic',
        rrfK: -1,
        minSimilarity: 2,
      });
    } catch (error) {
      expect((error as MemConfigError).message).toContain('createInMemoryKnowledgeBase options');
      expect((error as MemConfigError).issues.map((i) => i.path)).toEqual([
        'namespace',
        'embedder',
        'rrfK',
        'minSimilarity',
      ]);
    }
  });

  it('rejects an add whose knowledge base is closed while the embedder runs', async () => {
    let kb = createInMemoryKnowledgeBase();
    const embedder = createWordVectorEmbedder({ onEmbed: () => void kb.close() });
    kb = createInMemoryKnowledgeBase({ embedder });
    await expect(kb.add(COLLECTION, [chunk('a', 'invoice')])).rejects.toMatchObject({
      code: 'MEM_STORE',
    });
    expect(embedder.calls).toHaveLength(1);
  });
});
