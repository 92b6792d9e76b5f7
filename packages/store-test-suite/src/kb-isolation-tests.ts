import { describe, expect, it } from 'vitest';
import { ODD_SESSION_IDS } from './bad-input-tests.ts';
import { KNOWLEDGE_CORPUS, knowledgeChunk, searchIds, TEST_COLLECTION } from './kb-fixtures.ts';
import { useKnowledgeBases } from './kb-harness.ts';
import type { KnowledgeBaseFactory, KnowledgeBaseSuiteOptions } from './kb-suite-options.ts';

/** Collections, namespaces and sessions never see each other's chunks; odd ids stay exact. */
export function knowledgeBaseIsolationTests(
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions = {},
): void {
  describe('knowledge base isolation', () => {
    const bases = useKnowledgeBases(createKnowledgeBase, options);

    it('keeps collections apart, also collections whose ids share a prefix', async () => {
      const kb = await bases.seeded();
      await kb.add(`${TEST_COLLECTION}:x`, [
        knowledgeChunk('x:0', 'Invoice in another collection'),
      ]);
      await kb.add('session', [knowledgeChunk('y:0', 'Invoice in a third collection')]);
      expect(await searchIds(kb, 'invoice')).toStrictEqual(['billing:0']);
      expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
      const inX = { collectionId: `${TEST_COLLECTION}:x` };
      expect(await searchIds(kb, 'invoice', inX)).toStrictEqual(['x:0']);
      expect(await searchIds(kb, 'invoice', { collectionId: 'session' })).toStrictEqual(['y:0']);
      expect(await kb.delete(`${TEST_COLLECTION}:x`, { sessionId: 's1' })).toBe(1);
      expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
      expect(await kb.count('session')).toBe(1);
    });

    it('keeps namespaces apart', async () => {
      const [a, b] = [await bases.open(), await bases.open()];
      await a.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
      expect(await b.count(TEST_COLLECTION)).toBe(0);
      expect(await searchIds(b, 'invoice')).toStrictEqual([]);
      await b.add(TEST_COLLECTION, [knowledgeChunk('billing:0', 'Invoice in another namespace')]);
      expect(await searchIds(b, 'invoice refund')).toStrictEqual(['billing:0']);
      expect(await b.delete(TEST_COLLECTION, { sessionId: 's1' })).toBe(1);
      expect(await a.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
      expect(await searchIds(a, 'AF-1042')).toStrictEqual(['billing:0']);
    });

    it('stores odd session and chunk ids exactly, each apart from the others', async () => {
      const kb = await bases.open();
      await kb.add(
        TEST_COLLECTION,
        ODD_SESSION_IDS.map((id, i) =>
          knowledgeChunk(id, `walrus notes ${i}`, { sessionId: id, messageIds: [id] }),
        ),
      );
      // The same odd ids as chunk ids of one plain session.
      await kb.add(
        TEST_COLLECTION,
        ODD_SESSION_IDS.map((id, i) =>
          knowledgeChunk(id, `pelican notes ${i}`, { sessionId: 'p' }),
        ),
      );
      expect(await kb.count(TEST_COLLECTION)).toBe(ODD_SESSION_IDS.length * 2);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 'p' })).toBe(ODD_SESSION_IDS.length);
      for (const id of ODD_SESSION_IDS) {
        expect(await kb.count(TEST_COLLECTION, { sessionId: id }), id).toBe(1);
        const hits = await kb.search(TEST_COLLECTION, 'walrus', { topK: 100, sessionId: id });
        expect(
          hits.map((h) => [h.chunk.id, h.chunk.metadata.sessionId]),
          id,
        ).toStrictEqual([[id, id]]);
      }
      const pelican = await kb.search(TEST_COLLECTION, 'pelican', { topK: 100, sessionId: 'p' });
      expect(pelican.map((h) => h.chunk.id).sort()).toStrictEqual([...ODD_SESSION_IDS].sort());
      expect(await kb.delete(TEST_COLLECTION, { sessionId: '*', messageIds: ['*'] })).toBe(1);
      expect(await kb.delete(TEST_COLLECTION, { sessionId: '{a}' })).toBe(1);
      expect(await kb.count(TEST_COLLECTION)).toBe(ODD_SESSION_IDS.length * 2 - 2);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 'a*b?c' })).toBe(1);
    });
  });
}
