import { KNOWLEDGE_BASE_SPECIFICATION_VERSION, knowledgeBaseProblem } from '@mem/core/backend';
import { describe, expect, it } from 'vitest';
import { expectMemError } from './fixtures.ts';
import { freshNamespace } from './harness.ts';
import { KNOWLEDGE_CORPUS, knowledgeChunk, searchIds, TEST_COLLECTION } from './kb-fixtures.ts';
import { useKnowledgeBases } from './kb-harness.ts';
import type { KnowledgeBaseFactory, KnowledgeBaseSuiteOptions } from './kb-suite-options.ts';

/** Spec version, capabilities, counts, exact copies in and out, durability, `close`. */
export function knowledgeBaseBasicTests(
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions = {},
): void {
  describe('knowledge base basics', () => {
    const bases = useKnowledgeBases(createKnowledgeBase, options);

    it('declares the spec version, boolean capabilities and its namespace', async () => {
      const namespace = freshNamespace();
      const kb = await bases.open(namespace);
      expect(kb.specificationVersion).toBe(KNOWLEDGE_BASE_SPECIFICATION_VERSION);
      expect(Object.keys(kb.capabilities).sort()).toStrictEqual(['durable', 'lexical', 'semantic']);
      for (const value of Object.values(kb.capabilities)) expect(typeof value).toBe('boolean');
      // What the engine checks before it uses a knowledge base.
      expect(knowledgeBaseProblem(kb)).toBeUndefined();
      // The ranking checks of this suite are lexical ones, which an embedder can also pass.
      if (options.semanticOnly === true) {
        expect(kb.capabilities).toMatchObject({ lexical: false, semantic: true });
      } else {
        expect(kb.capabilities.lexical).toBe(true);
      }
      expect(kb.namespace).toBe(namespace);
    });

    it('counts per collection and per session; 0 for a collection never written', async () => {
      const kb = await bases.seeded();
      await kb.add(TEST_COLLECTION, [
        knowledgeChunk('a', 'x', { sessionId: 's2' }),
        knowledgeChunk('b', 'y', { sessionId: 's2' }),
      ]);
      expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length + 2);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 's1' })).toBe(KNOWLEDGE_CORPUS.length);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 's2' })).toBe(2);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 'nobody' })).toBe(0);
      expect(await kb.count('empty')).toBe(0);
      await kb.add('empty', []);
      expect(await kb.count('empty')).toBe(0);
    });

    it('returns every field of a chunk exactly, as a copy, keeping none of the caller objects', async () => {
      const kb = await bases.open();
      const full = knowledgeChunk('c:0', 'Invoice 1 — café ☕ 日本語 "quoted"', {
        kind: 'archive',
        summaryId: 'sum-9',
        messageIds: ['m1', 'm0', 'm1b'],
        createdAt: 1_700_000_000_123,
        start: 1_699_999_999_000,
        end: 1_700_000_000_000,
      });
      const input = structuredClone(full);
      await kb.add(TEST_COLLECTION, [input]);
      input.text = 'changed';
      input.metadata.messageIds.push('m2');
      const [hit] = await kb.search(TEST_COLLECTION, 'invoice', { topK: 1 });
      expect(hit?.chunk).toStrictEqual(full);
      if (hit !== undefined) {
        hit.chunk.text = 'mutated';
        hit.chunk.metadata.messageIds.push('m3');
      }
      const [again] = await kb.search(TEST_COLLECTION, 'invoice', { topK: 1 });
      expect(again?.chunk).toStrictEqual(full);
    });

    it('lets a second instance on the same namespace see the chunks when durable', async () => {
      const namespace = freshNamespace();
      const first = await bases.open(namespace);
      await first.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
      const second = await bases.open(namespace);
      // Not durable: one instance may or may not share its data with another (a shared
      // in-memory connection does); durable: every instance on the namespace sees it.
      if (first.capabilities.durable) {
        expect(await second.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
        expect(await searchIds(second, 'AF-1042')).toStrictEqual(['billing:0']);
      }
      expect(await first.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
      expect(await searchIds(first, 'AF-1042')).toStrictEqual(['billing:0']);
    });

    it('rejects every call after close with MEM_STORE', async () => {
      const kb = await bases.seeded();
      await kb.close();
      await expectMemError(kb.count(TEST_COLLECTION), 'MEM_STORE');
      await expectMemError(kb.search(TEST_COLLECTION, 'invoice', { topK: 1 }), 'MEM_STORE');
      await expectMemError(kb.add(TEST_COLLECTION, KNOWLEDGE_CORPUS), 'MEM_STORE');
      await expectMemError(kb.delete(TEST_COLLECTION, { sessionId: 's1' }), 'MEM_STORE');
    });
  });
}
