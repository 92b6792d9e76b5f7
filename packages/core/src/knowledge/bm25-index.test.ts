import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeText } from './analyze-text.ts';
import { BM25_B, BM25_K1, Bm25Index } from './bm25-index.ts';
import { deleteMatcher } from './delete-matcher.ts';
import type { KnowledgeChunk } from './knowledge-base-spec.ts';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];

function chunk(id: string, sessionId: string, text: string, createdAt = 0): KnowledgeChunk {
  return {
    id,
    text,
    tokenCount: 1,
    metadata: { sessionId, kind: 'summary', messageIds: [], createdAt },
  };
}

/** Textbook BM25 over a list of chunks, computed from scratch. */
function referenceScores(chunks: readonly KnowledgeChunk[], query: readonly string[]) {
  const docs = chunks.map((c) => analyzeText(c.text));
  const avgdl = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(docs.length, 1);
  const scores = new Map<string, number>();
  chunks.forEach((c, i) => {
    const terms = docs[i] as string[];
    let score = 0;
    let matched = false;
    for (const q of query) {
      const tf = terms.filter((t) => t === q).length;
      if (tf === 0) continue;
      matched = true;
      const df = docs.filter((d) => d.includes(q)).length;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      const norm = BM25_K1 * (1 - BM25_B + (BM25_B * terms.length) / avgdl);
      score += (idf * tf * (BM25_K1 + 1)) / (tf + norm);
    }
    if (matched) scores.set(`${c.metadata.sessionId}/${c.id}`, score);
  });
  return scores;
}

// Skewed word frequencies, so that common terms get pruned and rare ones decide.
const word = fc.oneof(
  { arbitrary: fc.constantFrom('alpha', 'beta'), weight: 8 },
  { arbitrary: fc.constantFrom('gamma', 'delta', 'epsilon'), weight: 3 },
  { arbitrary: fc.constantFrom('zeta', 'eta', 'theta'), weight: 1 },
);
const text = fc.array(word, { minLength: 0, maxLength: 12 }).map((w) => w.join(' '));
const op = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    id: fc.integer({ min: 0, max: 20 }),
    session: fc.constantFrom('s1', 's2'),
    text,
  }),
  fc.record({
    kind: fc.constant('remove' as const),
    id: fc.integer({ min: 0, max: 20 }),
    session: fc.constantFrom('s1', 's2'),
  }),
);

describe('Bm25Index', () => {
  it('after any sequence of adds, replacements and removals, scores match BM25 from scratch', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 60 }),
        fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
        (ops, query) => {
          const index = new Bm25Index();
          const live = new Map<string, KnowledgeChunk>();
          for (const o of ops) {
            const key = `${o.session}/${o.id}`;
            if (o.kind === 'add') {
              const c = chunk(String(o.id), o.session, o.text);
              index.add([c]);
              live.set(key, c);
            } else {
              const entry = index.sessions.get(o.session)?.get(String(o.id));
              if (entry !== undefined) index.remove([entry]);
              live.delete(key);
            }
          }
          expect(index.size).toBe(live.size);
          const expected = referenceScores([...live.values()], query);
          const all = index.search(query, 100);
          expect(all.length).toBe(expected.size);
          for (const hit of all) {
            const key = `${hit.chunk.metadata.sessionId}/${hit.chunk.id}`;
            expect(hit.score).toBeCloseTo(expected.get(key) as number, 9);
          }
          const ranked = [...expected.values()].sort((a, b) => b - a);
          for (const topK of [1, 2, 3]) {
            // Pruned searches return the same best scores as scoring everything.
            const hits = index.search(query, topK);
            expect(hits.map((h) => h.score)).toEqual(all.slice(0, topK).map((h) => h.score));
            hits.forEach((hit, i) => {
              expect(hit.score).toBeCloseTo(ranked[i] as number, 9);
            });
          }
          const s1 = [...live.values()].filter((c) => c.metadata.sessionId === 's1');
          const inS1 = index.search(query, 2, 's1');
          expect(inS1.every((h) => h.chunk.metadata.sessionId === 's1')).toBe(true);
          expect(inS1.map((h) => h.score)).toEqual(
            all
              .filter((h) => h.chunk.metadata.sessionId === 's1')
              .slice(0, 2)
              .map((h) => h.score),
          );
          expect(inS1.length).toBe(
            Math.min(2, s1.filter((c) => expected.has(`s1/${c.id}`)).length),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('prunes with bounds kept across searches: top k as scoring everything, after any writes', () => {
    // Lengths vary a lot (so the average moves past the bounds' margin) and searches run
    // between writes, so a search meets bounds an earlier one kept.
    const longText = fc
      .tuple(text, fc.integer({ min: 0, max: 40 }))
      .map(([t, pad]) => `${t} ${'alpha '.repeat(pad)}`);
    const step = fc.oneof(
      op,
      op.map((o) => (o.kind === 'add' ? { ...o, text: `${o.text} zeta` } : o)),
      fc.record({
        kind: fc.constant('add' as const),
        id: fc.integer({ min: 0, max: 20 }),
        session: fc.constant('s1'),
        text: longText,
      }),
      fc.record({
        kind: fc.constant('search' as const),
        query: fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
        topK: fc.integer({ min: 1, max: 4 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        const index = new Bm25Index();
        for (const o of steps) {
          if (o.kind === 'add') index.add([chunk(String(o.id), o.session, o.text)]);
          else if (o.kind === 'remove') {
            const entry = index.sessions.get(o.session)?.get(String(o.id));
            if (entry !== undefined) index.remove([entry]);
          } else {
            const everything = index.search(o.query, 1_000);
            const pruned = index.search(o.query, o.topK);
            const key = (h: { chunk: KnowledgeChunk; score: number }) =>
              `${h.chunk.metadata.sessionId}/${h.chunk.id}:${h.score}`;
            expect(pruned.map(key)).toEqual(everything.slice(0, o.topK).map(key));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('raises a kept bound when a document that scores higher on the term arrives', () => {
    const index = new Bm25Index();
    const filler = 'filler '.repeat(30);
    const docs = Array.from({ length: 40 }, (_, i) => chunk(`f${i}`, 's', `other ${i}`));
    for (let i = 0; i < 4; i++) docs.push(chunk(`a${i}`, 's', `alpha ${filler}`));
    docs.push(chunk('z', 's', `zeta ${filler}`));
    index.add(docs);
    expect(index.search(['zeta', 'alpha'], 1).map((h) => h.chunk.id)).toEqual(['z']);
    // A short document full of "alpha" now beats the zeta one: the alpha bound the first
    // search kept must not let the search stop after zeta.
    index.add([chunk('short', 's', 'alpha '.repeat(8))]);
    const everything = index.search(['zeta', 'alpha'], 1_000);
    expect(everything[0]?.chunk.id).toBe('short');
    expect(index.search(['zeta', 'alpha'], 1).map((h) => h.chunk.id)).toEqual(['short']);
  });

  it('breaks ties by newer createdAt, then by id', () => {
    const index = new Bm25Index();
    index.add([
      chunk('b', 's', 'alpha', 1),
      chunk('a', 's', 'alpha', 1),
      chunk('c', 's', 'alpha', 2),
    ]);
    expect(index.search(['alpha'], 3).map((h) => h.chunk.id)).toEqual(['c', 'a', 'b']);
  });

  it('keeps the last of two chunks with the same session and id in one batch', () => {
    const index = new Bm25Index();
    index.add([chunk('x', 's', 'alpha'), chunk('x', 's', 'beta')]);
    expect(index.size).toBe(1);
    expect(index.search(['alpha'], 5)).toEqual([]);
    expect(index.search(['beta'], 5).map((h) => h.chunk.text)).toEqual(['beta']);
  });
});

describe('Bm25Index renumbering', () => {
  it('packs slots after mass removal and still ranks exactly like a fresh index', () => {
    const index = new Bm25Index();
    const all = Array.from({ length: 3000 }, (_, i) =>
      chunk(`c${i}`, `s${i % 3}`, `${WORDS[i % 8]} ${WORDS[(i * 7) % 8]} item${i % 50}`, i % 10),
    );
    index.add(all);
    const doomed = all
      .filter((_, i) => i % 3 !== 0)
      .map((c) => index.sessions.get(c.metadata.sessionId)?.get(c.id))
      .filter((e) => e !== undefined);
    index.remove(doomed);
    const kept = all.filter((_, i) => i % 3 === 0);
    const fresh = new Bm25Index();
    fresh.add(kept);
    expect(index.size).toBe(kept.length);
    const entries = [...index.sessions.values()].flatMap((s) => [...s.values()]);
    expect(Math.max(...entries.map((e) => e.slot))).toBe(kept.length - 1);
    for (const query of [['alpha', 'item7'], ['gamma'], ['theta', 'beta', 'item49']]) {
      const got = index.search(query, 10).map((h) => [h.chunk.id, h.score]);
      expect(got).toEqual(fresh.search(query, 10).map((h) => [h.chunk.id, h.score]));
    }
    // Adding after a renumber keeps postings sorted and searchable.
    index.add([chunk('new', 's9', 'zeta zeta zeta item7', 99)]);
    expect(index.search(['zeta', 'item7'], 1)[0]?.chunk.id).toBe('new');
  });

  it('finds a summary’s entries through its index exactly as scanning the session does', () => {
    const summaryOf = fc.option(fc.constantFrom('S1', 'S2', 'S3'), { nil: undefined });
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        id: fc.integer({ min: 0, max: 12 }),
        session: fc.constantFrom('s1', 's2'),
        summaryId: summaryOf,
      }),
      fc.record({
        kind: fc.constant('delete' as const),
        session: fc.constantFrom('s1', 's2'),
        summaryIds: fc.array(fc.constantFrom('S1', 'S2', 'S3', 'S4'), { maxLength: 3 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 50 }), (steps) => {
        const index = new Bm25Index();
        for (const s of steps) {
          if (s.kind === 'add') {
            const c = chunk(`c${s.id}`, s.session, 'alpha beta');
            const metadata =
              s.summaryId === undefined ? c.metadata : { ...c.metadata, summaryId: s.summaryId };
            index.add([{ ...c, metadata }]);
            continue;
          }
          const matches = deleteMatcher({ sessionId: s.session, summaryIds: s.summaryIds });
          const scanned = [...(index.sessions.get(s.session)?.values() ?? [])].filter((e) =>
            matches(e.chunk),
          );
          const found = index.summaryEntries(s.session, s.summaryIds);
          const ids = (entries: typeof found) => entries.map((e) => e.chunk.id).sort();
          expect(ids(found)).toEqual(ids(scanned));
          index.remove(found);
          expect(index.summaryEntries(s.session, s.summaryIds)).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
