import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeText } from './analyze-text.ts';
import { Bm25Index } from './bm25-index.ts';
import { bm25Weight, pickTerms, rankScope } from './bm25-scope.ts';
import type { KnowledgeChunk } from './knowledge-base-spec.ts';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'zeta', 'theta', 'iota', 'kappa', 'lambda', 'mu'];

function chunk(id: string, sessionId: string, text: string, createdAt: number): KnowledgeChunk {
  return {
    id,
    text,
    tokenCount: 1,
    metadata: { sessionId, kind: 'summary', messageIds: [], createdAt },
  };
}

describe('rankScope', () => {
  it('ranks a scope with the collection’s statistics exactly as Bm25Index does, to the last bit', () => {
    const word = fc.oneof(
      { arbitrary: fc.constantFrom('alpha', 'beta'), weight: 6 },
      { arbitrary: fc.constantFrom(...WORDS), weight: 3 },
    );
    const doc = fc.record({
      id: fc.integer({ min: 0, max: 30 }),
      session: fc.constantFrom('s1', 's2', 's3'),
      text: fc.array(word, { minLength: 0, maxLength: 14 }).map((w) => w.join(' ')),
      createdAt: fc.integer({ min: 1, max: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(doc, { maxLength: 40 }),
        fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 10 }),
        fc.constantFrom('s1', 's2', 's3'),
        fc.integer({ min: 1, max: 6 }),
        (docs, query, session, topK) => {
          const index = new Bm25Index();
          const live = new Map<string, KnowledgeChunk>();
          for (const d of docs) {
            const c = chunk(`c${d.id}`, d.session, d.text, d.createdAt);
            index.add([c]);
            live.set(`${d.session}/${c.id}`, c);
          }
          const analyzed = [...live.values()].map((c) => ({ c, terms: analyzeText(c.text) }));
          const stats = {
            documents: analyzed.length,
            totalLength: analyzed.reduce((sum, a) => sum + a.terms.length, 0),
          };
          const weighted = query.flatMap((term) => {
            const df = analyzed.filter((a) => a.terms.includes(term)).length;
            return df === 0 ? [] : [{ term, weight: bm25Weight(stats.documents, df) }];
          });
          const scope = analyzed.filter((a) => a.c.metadata.sessionId === session);
          const ranked = rankScope(
            stats,
            pickTerms(weighted),
            scope,
            {
              length: (a) => a.terms.length,
              createdAt: (a) => a.c.metadata.createdAt,
              frequencies: (a, into) => {
                pickTerms(weighted).forEach(({ term }, i) => {
                  into[i] = a.terms.filter((t) => t === term).length;
                });
              },
              key: (a) => [a.c.id, a.c.metadata.sessionId],
            },
            topK,
          );
          const expected = index.search(query, topK, session);
          expect(ranked.map((h) => [h.doc.c.id, h.score])).toEqual(
            expected.map((h) => [h.chunk.id, h.score]),
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});
