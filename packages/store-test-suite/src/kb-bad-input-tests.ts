import type { KnowledgeChunk } from '@mem/core/backend';
import { describe, expect, it } from 'vitest';
import { INVALID_SESSION_IDS } from './bad-input-tests.ts';
import { expectMemError } from './fixtures.ts';
import { KNOWLEDGE_CORPUS, knowledgeChunk, searchIds, TEST_COLLECTION } from './kb-fixtures.ts';
import { useKnowledgeBases } from './kb-harness.ts';
import type { KnowledgeBaseFactory, KnowledgeBaseSuiteOptions } from './kb-suite-options.ts';

/** Collection ids every knowledge base must reject. */
export const INVALID_COLLECTION_IDS: readonly unknown[] = [
  '',
  'a b',
  '*',
  '?',
  '%',
  '{x}',
  '..',
  '../x',
  'a/b',
  'é',
  'a\u0000b',
  "x'; DROP TABLE mem_kb_chunks; --",
  'x'.repeat(129),
  42,
  undefined,
];

/** Queries made of quotes, full-text operators and control characters: plain words, or nothing. */
const HOSTILE_QUERIES = ['"', '""', "'", '*', '^', '(', ')', '-', '+', ':', 'AND OR NOT', 'x*"'];
const HOSTILE_QUERIES_MORE = ['col:x', '{}', '[]', '\\', '%', '_', '\u0000', '\ud800', '\udc00'];

/** Every method with `collectionId`. */
const everyMethod = (collectionId: unknown) => [
  (kb: KbLike) => kb.add(collectionId as string, []),
  (kb: KbLike) => kb.search(collectionId as string, 'q', { topK: 1 }),
  (kb: KbLike) => kb.delete(collectionId as string, { sessionId: 's1' }),
  (kb: KbLike) => kb.count(collectionId as string),
];
type KbLike = Awaited<ReturnType<KnowledgeBaseFactory>>;

/** Invalid ids, chunks and options rejected with nothing written; hostile text and queries. */
export function knowledgeBaseBadInputTests(
  createKnowledgeBase: KnowledgeBaseFactory,
  options: KnowledgeBaseSuiteOptions = {},
): void {
  describe('knowledge base bad input', () => {
    const bases = useKnowledgeBases(createKnowledgeBase, options);

    it.each(INVALID_COLLECTION_IDS.map((id) => [String(id).slice(0, 40), id]))(
      'rejects the collection id %j in every method, naming collectionId',
      async (_label, collectionId) => {
        const kb = await bases.open();
        for (const call of everyMethod(collectionId)) {
          await expectMemError(call(kb), 'MEM_VALIDATION', 'collectionId');
        }
      },
    );

    it('accepts collection ids of 1-128 letters, digits, _ - . :', async () => {
      const kb = await bases.open();
      for (const id of ['a', 'kb:support_v2.1-x', 'x'.repeat(128), 'A-Z_0.9:']) {
        await kb.add(id, [knowledgeChunk('c', 'hello world')]);
        expect(await kb.count(id), id).toBe(1);
      }
    });

    it.each(INVALID_SESSION_IDS)(
      'rejects a session id with %s in chunks, options and filters, writing nothing',
      async (_label, sessionId) => {
        const kb = await bases.seeded();
        const bad = knowledgeChunk('bad', 'pineapple', { sessionId: sessionId as string });
        await expectMemError(
          kb.add(TEST_COLLECTION, [knowledgeChunk('ok', 'mango'), bad]),
          'MEM_VALIDATION',
          'chunks[1].metadata.sessionId',
        );
        const sid = sessionId as string;
        await expectMemError(
          kb.delete(TEST_COLLECTION, { sessionId: sid }),
          'MEM_VALIDATION',
          'filter.sessionId',
        );
        // In search and count, an undefined sessionId means "every session".
        if (sessionId !== undefined) {
          await expectMemError(
            kb.search(TEST_COLLECTION, 'x', { topK: 1, sessionId: sid }),
            'MEM_VALIDATION',
            'options.sessionId',
          );
          await expectMemError(
            kb.count(TEST_COLLECTION, { sessionId: sid }),
            'MEM_VALIDATION',
            'filter.sessionId',
          );
        }
        expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
        expect(await searchIds(kb, 'mango pineapple')).toStrictEqual([]);
      },
    );

    it('rejects a bad chunk anywhere in a batch, naming its path, and stores nothing of the batch', async () => {
      const kb = await bases.seeded();
      const cases: [field: string, bad: unknown][] = [
        ['chunks[1].text', { ...knowledgeChunk('bad', 'x'), text: 42 }],
        ['chunks[1].tokenCount', { ...knowledgeChunk('bad', 'x'), tokenCount: -1 }],
        ['chunks[1].tokenCount', { ...knowledgeChunk('bad', 'x'), tokenCount: 1.5 }],
        ['chunks[1].id', { ...knowledgeChunk('bad', 'x'), id: '' }],
        ['chunks[1].id', { ...knowledgeChunk('bad', 'x'), id: 'i'.repeat(513) }],
        ['chunks[1].metadata.kind', knowledgeChunk('bad', 'x', { kind: 'other' as 'summary' })],
        [
          'chunks[1].metadata.messageIds',
          knowledgeChunk('bad', 'x', { messageIds: 'm1' as never }),
        ],
        ['chunks[1].metadata.createdAt', knowledgeChunk('bad', 'x', { createdAt: Number.NaN })],
        ['chunks[1]', null],
      ];
      for (const [field, bad] of cases) {
        const batch = [knowledgeChunk('ok', 'pineapple'), bad] as KnowledgeChunk[];
        const error = await expectMemError(kb.add(TEST_COLLECTION, batch), 'MEM_VALIDATION');
        expect((error as { field?: string }).field?.startsWith(field), error.message).toBe(true);
      }
      await expectMemError(
        kb.add(TEST_COLLECTION, 'nope' as unknown as KnowledgeChunk[]),
        'MEM_VALIDATION',
        'chunks',
      );
      expect(await searchIds(kb, 'pineapple')).toStrictEqual([]);
      expect(await kb.count(TEST_COLLECTION)).toBe(KNOWLEDGE_CORPUS.length);
    });

    it('rejects a bad query or topK, naming the field', async () => {
      const kb = await bases.seeded();
      for (const topK of [0, -1, 1.5, Number.NaN, '3']) {
        await expectMemError(
          kb.search(TEST_COLLECTION, 'invoice', { topK: topK as number }),
          'MEM_VALIDATION',
          'options.topK',
        );
      }
      for (const query of [42, null, undefined, ['invoice']]) {
        await expectMemError(
          kb.search(TEST_COLLECTION, query as unknown as string, { topK: 1 }),
          'MEM_VALIDATION',
          'query',
        );
      }
    });

    it('treats quotes, full-text operators and control characters in a query as plain text', async () => {
      const kb = await bases.seeded();
      for (const hostile of [...HOSTILE_QUERIES, ...HOSTILE_QUERIES_MORE]) {
        expect(await searchIds(kb, hostile), JSON.stringify(hostile)).toStrictEqual([]);
      }
      // "near" is just a word here (lunch:0 says "near the office"), not an operator.
      expect(await searchIds(kb, 'NEAR(')).toStrictEqual(['lunch:0']);
      expect((await searchIds(kb, 'NEAR(invoice refund)')).sort()).toStrictEqual([
        'billing:0',
        'lunch:0',
      ]);
      for (const query of [
        'body:invoice',
        '"invoice" OR scope:c1 NOT * ^refund',
        'invoice)',
        '(invoice',
        'invoice*',
        "invoice'",
        'invoice\u0000',
        '\u0000invoice',
        'invoice\ud800',
        '\udc00invoice',
        '{invoice}',
        '%invoice%',
      ]) {
        expect(await searchIds(kb, query), JSON.stringify(query)).toStrictEqual(['billing:0']);
      }
    });

    it('searches with a huge query', async () => {
      const kb = await bases.seeded();
      const words = Array.from({ length: 20_000 }, (_, i) => `w${i}x`).join(' ');
      // Which terms of a huge query count is the backend's choice; a leading one always does.
      expect(await searchIds(kb, `AF-1042 ${words}`)).toStrictEqual(['billing:0']);
      expect(await searchIds(kb, 'invoice '.repeat(50_000))).toStrictEqual(['billing:0']);
    });

    it('stores hostile text exactly: quotes, operators, NUL, lone surrogates, a huge chunk', async () => {
      const kb = await bases.open();
      const texts = [
        'quokka "quoted" \'single\' `tick` NEAR(a b) AND OR NOT * ^ col:x',
        'quokka with a NUL \u0000 inside',
        'quokka lone \ud800 high and \udc00 low surrogates',
        'quokka \\ backslash %s %n {tag} [x] 😀 e\u0301 \u2028',
      ];
      const huge = `${Array.from({ length: 40_000 }, (_, i) => `filler${i % 500}`).join(' ')} quokka`;
      const chunks = [...texts, huge].map((text, i) => knowledgeChunk(`h${i}`, text));
      await kb.add(TEST_COLLECTION, chunks);
      const hits = await kb.search(TEST_COLLECTION, 'quokka', { topK: 10 });
      expect(hits.map((h) => h.chunk.id).sort()).toStrictEqual(['h0', 'h1', 'h2', 'h3', 'h4']);
      for (const hit of hits) {
        expect(hit.chunk).toStrictEqual(chunks[Number(hit.chunk.id.slice(1))]);
      }
      expect(await searchIds(kb, 'filler499')).toStrictEqual(['h4']);
    });
  });
}
