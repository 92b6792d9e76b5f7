import { describe, expect, it } from 'vitest';
import { knowledgeChunk, searchIds, TEST_COLLECTION } from './kb-fixtures.ts';
import { useKnowledgeBases } from './kb-harness.ts';
import type { KnowledgeBaseFactory, KnowledgeBaseSuiteOptions } from './kb-suite-options.ts';

/** Ranking sanity, scores and ranks, `topK`, ties, empty results, `sessionId` scoping. */
export function knowledgeBaseSearchTests(
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions = {},
): void {
  describe('knowledge base search', () => {
    const bases = useKnowledgeBases(createKnowledgeBase, options);

    it('ranks the relevant chunk first', async () => {
      const kb = await bases.seeded();
      const first = async (query: string) => (await searchIds(kb, query))[0];
      expect(await first('What happened with the refund for the invoice?')).toBe('billing:0');
      expect(await first('why did the payments deploy fail')).toBe('deploy:0');
      expect(await first('where does Alice like to eat lunch')).toBe('lunch:0');
      expect(await first('train to Porto')).toBe('travel:0');
      expect(await searchIds(kb, 'AF-1042')).toStrictEqual(['billing:0']);
      expect(await searchIds(kb, 'af 1042')).toStrictEqual(['billing:0']);
      expect(await searchIds(kb, 'AF-1042', { sessionId: 's1' })).toStrictEqual(['billing:0']);
      expect(await searchIds(kb, 'CAFÉ lisböa weather')).toStrictEqual(['weather:0']);
    });

    it('returns positive scores best first with ranks from 1, the same when scoped to the only session', async () => {
      const kb = await bases.seeded();
      const hits = await kb.search(TEST_COLLECTION, 'ticket invoice deploy', { topK: 5 });
      expect(hits.length).toBeGreaterThan(1);
      expect(hits.map((h) => h.rank)).toStrictEqual(hits.map((_, i) => i + 1));
      for (let i = 1; i < hits.length; i++) {
        expect(hits[i - 1]?.score).toBeGreaterThanOrEqual(hits[i]?.score as number);
      }
      expect(hits.every((h) => h.score > 0)).toBe(true);
      const scoped = await kb.search(TEST_COLLECTION, 'ticket invoice deploy', {
        topK: 5,
        sessionId: 's1',
      });
      expect(scoped).toStrictEqual(hits);
    });

    it('honours topK, also when fewer chunks match', async () => {
      const kb = await bases.seeded();
      const query = 'weather invoice deploy lunch train';
      const five = await searchIds(kb, query, { topK: 5 });
      expect(five).toHaveLength(5);
      expect(await searchIds(kb, query, { topK: 2 })).toStrictEqual(five.slice(0, 2));
      expect(await searchIds(kb, query, { topK: 1 })).toStrictEqual(five.slice(0, 1));
      expect(await searchIds(kb, query, { topK: 1_000 })).toStrictEqual(five);
      expect(await searchIds(kb, 'invoice', { topK: 50 })).toStrictEqual(['billing:0']);
    });

    it('finds a chunk by its context, returns the context as given and never as its text', async () => {
      const kb = await bases.open();
      const answer = {
        ...knowledgeChunk('answer:0', 'I put my right hand out and heard a crack.', {
          kind: 'archive',
          messageIds: ['m2'],
        }),
        context: 'How did you break your wrist bouldering?',
      };
      await kb.add(TEST_COLLECTION, [
        answer,
        knowledgeChunk('other:0', 'The new climbing gym opens on Monday.', { kind: 'archive' }),
      ]);
      const hits = await kb.search(TEST_COLLECTION, 'broken wrist bouldering', { topK: 5 });
      expect(hits[0]?.chunk).toStrictEqual(answer);
      expect(hits[0]?.chunk.text).not.toContain('wrist');
      // Without a context the field is absent, not undefined or empty.
      const [other] = await kb.search(TEST_COLLECTION, 'climbing gym Monday', { topK: 1 });
      expect(other?.chunk.id).toBe('other:0');
      expect(Object.hasOwn(other!.chunk, 'context')).toBe(false);
    });

    it('breaks equal scores by the newer chunk', async () => {
      const kb = await bases.open();
      await kb.add(TEST_COLLECTION, [
        knowledgeChunk('tie:b', 'zebra crossing', { createdAt: 5 }),
        knowledgeChunk('tie:a', 'zebra crossing', { createdAt: 5 }),
        knowledgeChunk('tie:c', 'zebra crossing', { createdAt: 9 }),
        knowledgeChunk('tie:d', 'zebra crossing', { createdAt: 1 }),
      ]);
      const ids = await searchIds(kb, 'zebra');
      expect(ids[0]).toBe('tie:c');
      expect(ids.slice(1, 3).sort()).toStrictEqual(['tie:a', 'tie:b']);
      expect(ids[3]).toBe('tie:d');
      expect(await searchIds(kb, 'zebra', { topK: 1 })).toStrictEqual(['tie:c']);
    });

    it('returns nothing for an empty query, stopwords only, no match, or an unknown collection', async () => {
      const kb = await bases.seeded();
      expect(await searchIds(kb, '')).toStrictEqual([]);
      expect(await searchIds(kb, '   \n\t ')).toStrictEqual([]);
      expect(await searchIds(kb, 'the and of it')).toStrictEqual([]);
      expect(await searchIds(kb, 'kubernetes')).toStrictEqual([]);
      expect(await kb.search('unknown', 'invoice', { topK: 3 })).toStrictEqual([]);
    });

    it('restricts hits to one session with sessionId', async () => {
      const kb = await bases.seeded();
      await kb.add(TEST_COLLECTION, [
        knowledgeChunk('billing:0', 'Invoice 777 is overdue.', { sessionId: 's2' }),
      ]);
      const all = await kb.search(TEST_COLLECTION, 'invoice', { topK: 5 });
      expect(all.map((h) => h.chunk.metadata.sessionId).sort()).toStrictEqual(['s1', 's2']);
      const s2 = await kb.search(TEST_COLLECTION, 'invoice', { topK: 5, sessionId: 's2' });
      expect(s2.map((h) => h.chunk.text)).toStrictEqual(['Invoice 777 is overdue.']);
      expect(s2.map((h) => h.rank)).toStrictEqual([1]);
      expect(await searchIds(kb, 'invoice', { sessionId: 'nobody' })).toStrictEqual([]);
    });

    it('scores the most selective terms of a long question, so common words cannot drown it', async () => {
      const kb = await bases.open();
      const common = 'order shipment customer invoice warehouse region budget meeting forecast';
      const filler = Array.from({ length: 40 }, (_, i) =>
        knowledgeChunk(`filler:${i}`, `${common} quarter report number ${i}`),
      );
      await kb.add(TEST_COLLECTION, [
        ...filler,
        knowledgeChunk('needle:0', `${common} the zanzibar contract`),
      ]);
      expect(await searchIds(kb, `${common} zanzibar`, { topK: 1 })).toStrictEqual(['needle:0']);
    });
  });
}
