import { describe, expect, it } from 'vitest';
import { KNOWLEDGE_CORPUS, knowledgeChunk, searchIds, TEST_COLLECTION } from './kb-fixtures.ts';
import { useKnowledgeBases } from './kb-harness.ts';
import type { KnowledgeBaseFactory, KnowledgeBaseSuiteOptions } from './kb-suite-options.ts';

/** `add` is idempotent per (session, chunk id): re-adding replaces, the last of a batch wins. */
export function knowledgeBaseAddTests(
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions = {},
): void {
  describe('knowledge base add', () => {
    const bases = useKnowledgeBases(createKnowledgeBase, options);

    it('changes nothing when the same batch is added again', async () => {
      const kb = await bases.seeded();
      // Scores are comparable only within one result list, so compare chunks and ranks.
      const hits = async () =>
        (await kb.search(TEST_COLLECTION, 'invoice deploy train', { topK: 5 })).map((h) => [
          h.chunk,
          h.rank,
        ]);
      const before = await hits();
      expect(before).toHaveLength(3);
      await kb.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
      await kb.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
      expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
      expect(await hits()).toStrictEqual(before);
    });

    it('keeps the scores of a search when the same chunks are added again and again', async () => {
      const kb = await bases.seeded();
      // Replacing a chunk by itself must leave every ranking statistic (document count, average
      // length, term rarity) as it was; an index that only tombstones old rows drifts here.
      const scores = async () =>
        (await kb.search(TEST_COLLECTION, 'invoice deploy train', { topK: 5 })).map((h) => [
          h.chunk.id,
          h.score,
        ]);
      const before = await scores();
      expect(before).toHaveLength(3);
      for (let i = 0; i < 5; i++) await kb.add(TEST_COLLECTION, KNOWLEDGE_CORPUS);
      const after = await scores();
      expect(after.map(([id]) => id)).toStrictEqual(before.map(([id]) => id));
      after.forEach(([, score], i) => {
        expect(score).toBeCloseTo(before[i]?.[1] as number, 9);
      });
    });

    it('replaces a chunk re-added with the same session and id; its old words are gone', async () => {
      const kb = await bases.seeded();
      await kb.add(TEST_COLLECTION, [
        knowledgeChunk('billing:0', 'The customer changed their shipping address.'),
      ]);
      expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
      expect(await searchIds(kb, 'invoice refund AF-1042')).toStrictEqual([]);
      expect(await searchIds(kb, 'shipping address')).toStrictEqual(['billing:0']);
      const [hit] = await kb.search(TEST_COLLECTION, 'shipping', { topK: 1 });
      expect(hit?.chunk.metadata.messageIds).toStrictEqual([]);
    });

    it('keeps the same chunk id in another session as another chunk', async () => {
      const kb = await bases.seeded();
      await kb.add(TEST_COLLECTION, [
        knowledgeChunk('billing:0', 'Shipping was late.', { sessionId: 's2' }),
      ]);
      expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length + 1);
      expect(await searchIds(kb, 'AF-1042')).toStrictEqual(['billing:0']);
      const late = await kb.search(TEST_COLLECTION, 'shipping late', { topK: 5 });
      expect(late.map((h) => h.chunk.metadata.sessionId)).toStrictEqual(['s2']);
    });

    it('lets the last chunk of a batch win when it repeats a session and id', async () => {
      const kb = await bases.open();
      await kb.add(TEST_COLLECTION, [
        knowledgeChunk('dup', 'first zebra'),
        knowledgeChunk('other', 'plain giraffe'),
        knowledgeChunk('dup', 'second kiwi'),
      ]);
      expect(await kb.count(TEST_COLLECTION)).toBe(2);
      expect(await searchIds(kb, 'zebra')).toStrictEqual([]);
      expect(await searchIds(kb, 'kiwi')).toStrictEqual(['dup']);
      expect(await searchIds(kb, 'giraffe')).toStrictEqual(['other']);
    });
  });
}
