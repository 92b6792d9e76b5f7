import { createWordVectorEmbedder } from '@mem/core/testing';
import { describe, expect, it } from 'vitest';
import { KNOWLEDGE_CORPUS, knowledgeChunk, searchIds, TEST_COLLECTION } from './kb-fixtures.ts';
import { type RetrievalRequest, useKnowledgeBases } from './kb-harness.ts';
import type { KnowledgeBaseFactory, KnowledgeBaseSuiteOptions } from './kb-suite-options.ts';

/** Three chunks for the query "invoice refund": one strong in words, one in meaning, one in both. */
const WORDS_AND_MEANING = [
  // Words: "invoice" three times ranks high by BM25; by meaning it is diluted (cosine 0.55).
  knowledgeChunk('words', 'invoice invoice invoice list archive folder cabinet drawer shelf'),
  // Meaning: a paraphrase ("bill", "reimbursement") sharing no word with the query (cosine 1).
  knowledgeChunk('meaning', 'bill reimbursement'),
  // Both: the query's words and one more (cosine 0.82).
  knowledgeChunk('both', 'invoice refund note'),
  // Neither: nothing in common (cosine 0).
  knowledgeChunk('neither', 'zebra crossing'),
];
const QUERY = 'invoice refund';

/**
 * Semantic and hybrid retrieval with a user's embedder (SPEC §6: every knowledge base offers
 * lexical, semantic and hybrid search): paraphrases, batching, Reciprocal Rank Fusion,
 * `minSimilarity`. The group builds its knowledge bases with `@mem/core/testing`'s word-vector
 * embedder, passed to the factory with `retrieval` and `minSimilarity`.
 */
export function knowledgeBaseSemanticTests(
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions = {},
): void {
  describe('knowledge base semantic and hybrid search', () => {
    const bases = useKnowledgeBases(createKnowledgeBase, options);
    /** A fresh knowledge base built with `request`, holding `chunks`. */
    const holding = async (request: RetrievalRequest, chunks = KNOWLEDGE_CORPUS) => {
      const kb = await bases.open(undefined, request);
      await kb.add(TEST_COLLECTION, chunks);
      return kb;
    };

    it('finds a paraphrase sharing no word in semantic and hybrid mode, not in lexical', async () => {
      const embedder = createWordVectorEmbedder();
      for (const retrieval of ['lexical', 'semantic', 'hybrid'] as const) {
        const kb = await holding({ embedder, retrieval });
        expect(kb.capabilities).toMatchObject({
          lexical: retrieval !== 'semantic',
          semantic: retrieval !== 'lexical',
        });
        // "bill", "reimbursement", "rail" and "trip" are in no chunk; "invoice", "refund" are.
        const expected = (id: string) => (retrieval === 'lexical' ? [] : [id]);
        expect(await searchIds(kb, 'bill reimbursement'), retrieval).toStrictEqual(
          expected('billing:0'),
        );
        expect(await searchIds(kb, 'rail trip', { topK: 1 }), retrieval).toStrictEqual(
          expected('travel:0'),
        );
      }
    });

    it('embeds chunks on add in batches of maxBatchSize, and the query on search', async () => {
      const embedder = createWordVectorEmbedder({ maxBatchSize: 2 });
      const kb = await holding({ embedder, retrieval: 'hybrid' });
      expect(embedder.calls.map((c) => [c.purpose, c.texts.length])).toStrictEqual([
        ['document', 2],
        ['document', 2],
        ['document', 1],
      ]);
      expect(embedder.calls.flatMap((c) => c.texts)).toStrictEqual(
        KNOWLEDGE_CORPUS.map((c) => c.text),
      );
      await searchIds(kb, 'train to Porto');
      expect(embedder.calls.at(-1)).toStrictEqual({ texts: ['train to Porto'], purpose: 'query' });
      // No searchable words, an empty batch or an unknown collection: no call.
      await searchIds(kb, 'the and of');
      await kb.add(TEST_COLLECTION, []);
      await kb.search('unknown', 'invoice', { topK: 1 });
      expect(embedder.calls).toHaveLength(4);
    });

    it('fuses both lists in hybrid mode: a hit of either list appears, scored Σ 1/(60 + rank)', async () => {
      const embedder = createWordVectorEmbedder();
      const chunks = [...KNOWLEDGE_CORPUS, ...WORDS_AND_MEANING];
      const list = async (retrieval: 'lexical' | 'semantic') =>
        searchIds(await holding({ embedder, retrieval }, chunks), QUERY, { topK: 20 });
      const words = await list('lexical');
      const meaning = await list('semantic');
      expect(words).toContain('words');
      expect(words).not.toContain('meaning');
      expect(meaning[0]).toBe('meaning');
      expect(meaning).not.toContain('neither');
      const expected = new Map<string, number>();
      for (const ids of [words, meaning]) {
        ids.forEach((id, i) => {
          expected.set(id, (expected.get(id) ?? 0) + 1 / (60 + i + 1));
        });
      }
      const hybrid = await holding({ embedder, retrieval: 'hybrid' }, chunks);
      const hits = await hybrid.search(TEST_COLLECTION, QUERY, { topK: 20 });
      expect(hits.map((h) => h.chunk.id).sort()).toStrictEqual([...expected.keys()].sort());
      for (const hit of hits) expect(hit.score).toBeCloseTo(expected.get(hit.chunk.id) ?? 0, 12);
      expect(hits.map((h) => h.rank)).toStrictEqual(hits.map((_, i) => i + 1));
      expect(hits[0]?.chunk.id).toBe('both');
      expect(await searchIds(hybrid, QUERY, { topK: 2 })).toStrictEqual(
        hits.slice(0, 2).map((h) => h.chunk.id),
      );
    });

    it('drops semantic hits below minSimilarity; in hybrid mode they do not enter the fusion', async () => {
      const embedder = createWordVectorEmbedder();
      const semantic = async (minSimilarity?: number) => {
        const request = minSimilarity === undefined ? {} : { minSimilarity };
        const kb = await holding(
          { embedder, retrieval: 'semantic', ...request },
          WORDS_AND_MEANING,
        );
        return kb.search(TEST_COLLECTION, QUERY, { topK: 10 });
      };
      const ids = (hits: { chunk: { id: string } }[]) => hits.map((h) => h.chunk.id);
      // Default: every similarity above 0; the unrelated chunk (0) is no hit.
      expect(ids(await semantic())).toStrictEqual(['meaning', 'both', 'words']);
      const strict = await semantic(0.7);
      expect(ids(strict)).toStrictEqual(['meaning', 'both']);
      for (const hit of strict) expect(hit.score).toBeGreaterThanOrEqual(0.7);
      expect(strict[0]?.score).toBeCloseTo(1, 5);
      expect(strict[1]?.score).toBeCloseTo(2 / Math.sqrt(6), 5);
      expect(ids(await semantic(0.9))).toStrictEqual(['meaning']);
      // A floor of -1 keeps everything, even the orthogonal chunk.
      expect(ids(await semantic(-1))).toStrictEqual(['meaning', 'both', 'words', 'neither']);

      // Hybrid: "words" (0.55) is left out of the semantic list, yet found by its words.
      const hybrid = await holding(
        { embedder, retrieval: 'hybrid', minSimilarity: 0.7 },
        WORDS_AND_MEANING,
      );
      const hits = await hybrid.search(TEST_COLLECTION, QUERY, { topK: 10 });
      expect(ids(hits)).toStrictEqual(['both', 'meaning', 'words']);
      expect(hits.map((h) => h.score)).toStrictEqual([
        expect.closeTo(1 / 61 + 1 / 62, 12),
        expect.closeTo(1 / 61, 12),
        expect.closeTo(1 / 62, 12),
      ]);
    });

    it('keeps vectors in step: a replaced or deleted chunk is no longer found by meaning', async () => {
      const embedder = createWordVectorEmbedder();
      const kb = await holding({ embedder, retrieval: 'semantic' });
      await kb.add(TEST_COLLECTION, [knowledgeChunk('billing:0', 'Shipping address changed.')]);
      expect(await searchIds(kb, 'bill reimbursement')).toStrictEqual([]);
      expect(await searchIds(kb, 'shipping')).toStrictEqual(['billing:0']);
      expect(await kb.delete(TEST_COLLECTION, { sessionId: 's1', summaryIds: ['sum1'] })).toBe(1);
      expect(await searchIds(kb, 'rail trip to Porto')).toStrictEqual([]);
      await kb.add(TEST_COLLECTION, [knowledgeChunk('x', 'rail', { sessionId: 's2' })]);
      expect(await searchIds(kb, 'train', { sessionId: 's1' })).toStrictEqual([]);
      expect(await searchIds(kb, 'train', { sessionId: 's2' })).toStrictEqual(['x']);
      await kb.delete(TEST_COLLECTION, { sessionId: 's2' });
      expect(await searchIds(kb, 'train')).toStrictEqual([]);
    });
  });
}
