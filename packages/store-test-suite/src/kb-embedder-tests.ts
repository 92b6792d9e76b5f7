import type { MemConfigError } from '@mem/core';
import type { Embedder } from '@mem/core/backend';
import { createWordVectorEmbedder } from '@mem/core/testing';
import { describe, expect, it } from 'vitest';
import { expectMemError } from './fixtures.ts';
import { freshNamespace } from './harness.ts';
import { KNOWLEDGE_CORPUS, knowledgeChunk, searchIds, TEST_COLLECTION } from './kb-fixtures.ts';
import { useKnowledgeBases } from './kb-harness.ts';
import type { KnowledgeBaseFactory, KnowledgeBaseSuiteOptions } from './kb-suite-options.ts';

type Fault = 'throw' | 'dimensions' | 'not finite' | 'count';

/** The word-vector embedder, failing on call number `failOn` with `fault`. */
function faultyEmbedder(maxBatchSize: number) {
  const inner = createWordVectorEmbedder({ maxBatchSize });
  const state = { calls: 0, failOn: 0, fault: 'throw' as Fault };
  const embedder: Embedder = {
    specificationVersion: inner.specificationVersion,
    id: inner.id,
    dimensions: inner.dimensions,
    maxBatchSize,
    embed: async (texts, options) => {
      state.calls += 1;
      const result = await inner.embed(texts, options);
      if (state.calls !== state.failOn) return result;
      const { embeddings } = result;
      switch (state.fault) {
        case 'throw':
          throw new Error('rate limited');
        case 'dimensions':
          return { embeddings: embeddings.map((v) => v.slice(1)) };
        case 'not finite':
          return { embeddings: embeddings.map((v) => [Number.NaN, ...v.slice(1)]) };
        case 'count':
          return { embeddings: embeddings.slice(1) };
      }
    },
  };
  return { embedder, state };
}

/** What a knowledge base does with a failing embedder, a foreign one, and bad retrieval options. */
export function knowledgeBaseEmbedderTests(
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions = {},
): void {
  describe('knowledge base embedder failures', () => {
    const bases = useKnowledgeBases(createKnowledgeBase, options);

    it('rejects add and search when the embedder throws or returns malformed vectors, changing nothing', async () => {
      const { embedder, state } = faultyEmbedder(2);
      const kb = await bases.open(undefined, { embedder, retrieval: 'hybrid' });
      await kb.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
      // Three chunks, two batches; one replaces a stored chunk. The second batch fails.
      const batch = [
        knowledgeChunk('billing:0', 'pineapple one'),
        knowledgeChunk('new:2', 'pineapple two'),
        knowledgeChunk('new:3', 'pineapple three'),
      ];
      for (const fault of ['throw', 'dimensions', 'not finite', 'count'] as const) {
        state.fault = fault;
        state.failOn = state.calls + 2;
        const error = await expectMemError(kb.add(TEST_COLLECTION, batch), 'MEM_STORE');
        expect(error.message).toContain(fault === 'throw' ? 'rate limited' : 'malformed');
        state.failOn = state.calls + 1;
        await expectMemError(kb.search(TEST_COLLECTION, 'invoice', { topK: 3 }), 'MEM_STORE');
      }
      state.failOn = 0;
      expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
      expect(await searchIds(kb, 'pineapple')).toStrictEqual([]);
      expect(await searchIds(kb, 'AF-1042')).toStrictEqual(['billing:0']);
      expect(await searchIds(kb, 'bill reimbursement')).toStrictEqual(['billing:0']);
    });

    it('refuses, where durable, an embedder of another id or dimensions on a namespace holding vectors', async () => {
      const namespace = freshNamespace();
      const first = await bases.open(namespace, {
        embedder: createWordVectorEmbedder({ id: 'model-a' }),
        retrieval: 'hybrid',
      });
      await first.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
      const others = [
        createWordVectorEmbedder({ id: 'model-b' }),
        createWordVectorEmbedder({ id: 'model-a', dimensions: 64 }),
      ];
      for (const embedder of others) {
        const kb = await bases.open(namespace, { embedder, retrieval: 'hybrid' });
        // Not durable: each instance holds its own data, so there is nothing to mix.
        if (!first.capabilities.durable) continue;
        const add = kb.add(TEST_COLLECTION, [knowledgeChunk('x', 'invoice')]);
        const error = await expectMemError(add, 'MEM_CONFIG');
        expect((error as MemConfigError).issues[0]?.path).toBe('embedder');
        expect(error.message).toContain('"model-a" (2048 dimensions)');
        await expectMemError(kb.search(TEST_COLLECTION, 'invoice', { topK: 1 }), 'MEM_CONFIG');
        // Refused before paying for any embedding.
        expect(embedder.calls).toStrictEqual([]);
      }
      expect(await first.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
      expect(await searchIds(first, 'bill')).toStrictEqual(['billing:0']);
      // Another namespace may use another embedder.
      const b = await bases.open(undefined, {
        embedder: createWordVectorEmbedder({ id: 'b' }),
        retrieval: 'hybrid',
      });
      await b.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
      expect(await searchIds(b, 'bill')).toStrictEqual(['billing:0']);
    });

    it('rejects a bad minSimilarity, and semantic retrieval without an embedder, naming the option', async () => {
      const embedder = createWordVectorEmbedder();
      const issues = async (request: Record<string, unknown>) => {
        const built = Promise.resolve().then(() =>
          createKnowledgeBase({ namespace: freshNamespace(), ...request }),
        );
        const error = await expectMemError(built, 'MEM_CONFIG');
        return (error as MemConfigError).issues.map((issue) => issue.path);
      };
      for (const minSimilarity of [1.5, -1.01, Number.NaN, '0.5', null]) {
        expect(await issues({ embedder, minSimilarity }), String(minSimilarity)).toContain(
          'minSimilarity',
        );
      }
      expect(await issues({ retrieval: 'semantic', embedder: undefined })).toContain('embedder');
      for (const minSimilarity of [-1, 0, 1]) {
        const kb = await bases.open(undefined, { embedder, retrieval: 'semantic', minSimilarity });
        expect(kb.capabilities.semantic).toBe(true);
      }
    });
  });
}
