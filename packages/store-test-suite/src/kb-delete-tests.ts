import { describe, expect, it } from 'vitest';
import { KNOWLEDGE_CORPUS, knowledgeChunk, searchIds, TEST_COLLECTION } from './kb-fixtures.ts';
import { useKnowledgeBases } from './kb-harness.ts';
import type { KnowledgeBaseFactory, KnowledgeBaseSuiteOptions } from './kb-suite-options.ts';

/** `delete` by session, message ids and summary ids: erased content never comes back. */
export function knowledgeBaseDeleteTests(
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions = {},
): void {
  describe('knowledge base delete', () => {
    const bases = useKnowledgeBases(createKnowledgeBase, options);

    it('deletes a whole session, and its content is no longer found', async () => {
      const kb = await bases.seeded();
      await kb.add(TEST_COLLECTION, [
        knowledgeChunk('s2:0', 'Invoice 5 for session two', { sessionId: 's2' }),
      ]);
      expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1' })).toBe(KNOWLEDGE_CORPUS.length);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 's1' })).toBe(0);
      expect(await kb.count(TEST_COLLECTION)).toBe(1);
      expect(await searchIds(kb, 'invoice refund ticket')).toStrictEqual(['s2:0']);
      expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1' })).toBe(0);
      expect(await kb.delete('unknown', { sessionId: 's1' })).toBe(0);
    });

    it('deletes by message ids: erased messages never come back through search', async () => {
      const kb = await bases.seeded();
      const filter = { sessionId: 's1', messageIds: ['m4', 'm99'] };
      expect(await kb.delete(TEST_COLLECTION, filter)).toBe(1);
      expect(await searchIds(kb, 'invoice refund AF-1042')).toStrictEqual([]);
      expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length - 1);
      // Another session's ids are not touched, and an empty list deletes nothing.
      expect(await kb.delete(TEST_COLLECTION, { sessionId: 's2', messageIds: ['m5'] })).toBe(0);
      expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: [] })).toBe(0);
      expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1', summaryIds: [] })).toBe(0);
      expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length - 1);
      // Nothing of the deleted chunk is left: re-adding its id with other text does not revive it.
      await kb.add(TEST_COLLECTION, [knowledgeChunk('billing:0', 'Nothing about money.')]);
      expect(await searchIds(kb, 'invoice refund AF-1042')).toStrictEqual([]);
      expect(await searchIds(kb, 'money')).toStrictEqual(['billing:0']);
    });

    it('deletes by summary ids, and by a summary id passed as a message id', async () => {
      const kb = await bases.seeded();
      expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1', summaryIds: ['sum1'] })).toBe(1);
      expect(await searchIds(kb, 'train Porto')).toStrictEqual([]);
      await kb.add(TEST_COLLECTION, [
        knowledgeChunk('sum2:0', 'Summary: the user plans a hike.', { summaryId: 'sum2' }),
        knowledgeChunk('sum2:1', 'The hike goes up the mountain.', { summaryId: 'sum2' }),
      ]);
      expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1', messageIds: ['sum2'] })).toBe(2);
      expect(await searchIds(kb, 'hike')).toStrictEqual([]);
      expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length - 1);
    });

    it('deletes every chunk matched by either list once', async () => {
      const kb = await bases.seeded();
      const filter = { sessionId: 's1', messageIds: ['m5', 'm7'], summaryIds: ['sum1'] };
      expect(await kb.delete(TEST_COLLECTION, filter)).toBe(2);
      expect((await searchIds(kb, 'deploy train weather invoice lunch')).sort()).toStrictEqual([
        'billing:0',
        'lunch:0',
        'weather:0',
      ]);
    });

    it('matches message ids with any characters exactly', async () => {
      const kb = await bases.open();
      const odd = ['3:ab', '2:a', 'ü:1', '"', '\n', '*', '%', "'; --"];
      await kb.add(
        TEST_COLLECTION,
        odd.map((id, i) => knowledgeChunk(`c${i}`, `ostrich ${i}`, { messageIds: [id, `${id}x`] })),
      );
      const del = (messageIds: string[]) =>
        kb.delete(TEST_COLLECTION, { sessionId: 's1', messageIds });
      expect(await del(['2:a'])).toBe(1);
      expect(await del(['3:a', '2', 'ab', 'u:1', '**', '%%'])).toBe(0);
      expect(await del(['ü:1x'])).toBe(1);
      expect(await del(['*'])).toBe(1);
      expect((await searchIds(kb, 'ostrich', { topK: 20 })).sort()).toStrictEqual([
        'c0',
        'c3',
        'c4',
        'c6',
        'c7',
      ]);
    });
  });
}
