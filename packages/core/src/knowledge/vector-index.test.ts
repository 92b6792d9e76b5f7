import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk } from './__fixtures__/knowledge-chunks.ts';
import { newerFirst } from './rank-hits.ts';
import { VectorIndex } from './vector-index.ts';

const unit = (values: number[]) => {
  const norm = Math.hypot(...values);
  return values.map((v) => v / norm);
};

describe('VectorIndex', () => {
  it('returns the same hits as sorting every cosine similarity, for any vectors and depth', () => {
    const vector = fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 3, maxLength: 3 });
    fc.assert(
      fc.property(
        fc.array(fc.record({ v: vector, t: fc.integer({ min: 0, max: 3 }) }), { maxLength: 40 }),
        vector,
        fc.integer({ min: 1, max: 12 }),
        fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined }),
        (docs, query, depth, minSimilarity) => {
          const index = new VectorIndex();
          const expected = [];
          for (const [i, { v, t }] of docs.entries()) {
            const c = chunk(`c${i}`, 'text', { createdAt: t, sessionId: `s${i % 3}` });
            index.set(c, Float32Array.from(v));
            if (v.every((x) => x === 0) || query.every((x) => x === 0)) continue;
            const [a, b] = [unit(v), unit(query)];
            const score = a.reduce((sum, x, j) => sum + x * (b[j] as number), 0);
            if (minSimilarity === undefined ? score > 1e-6 : score >= minSimilarity + 1e-6) {
              expected.push({ chunk: c, score });
            }
          }
          const hits = index.nearest(Float32Array.from(query), depth, undefined, minSimilarity);
          expect(hits.length).toBeLessThanOrEqual(depth);
          for (let i = 1; i < hits.length; i++) {
            const [prev, hit] = [hits[i - 1]!, hits[i]!];
            expect(prev.score > hit.score || newerFirst(prev, hit) < 0).toBe(true);
          }
          // Every clearly passing vector better than the last hit is among the hits.
          const last = hits.at(-1)?.score ?? Number.NEGATIVE_INFINITY;
          const ids = new Set(hits.map((h) => h.chunk.id));
          for (const e of expected) {
            if (e.score > last + 1e-6 || hits.length < depth) {
              expect(ids.has(e.chunk.id), e.chunk.id).toBe(true);
            }
          }
          for (const hit of hits) {
            if (minSimilarity !== undefined)
              expect(hit.score).toBeGreaterThanOrEqual(minSimilarity);
            else expect(hit.score).toBeGreaterThan(0);
          }
        },
      ),
    );
  });

  it('scopes to one session, replaces and deletes vectors, and skips zero vectors', () => {
    const index = new VectorIndex();
    const a = chunk('a', 'x');
    const b = chunk('b', 'x', { sessionId: 's2' });
    index.set(a, Float32Array.of(1, 0));
    index.set(b, Float32Array.of(2, 0));
    expect(index.nearest(Float32Array.of(3, 0), 5, undefined, undefined).map((h) => h.chunk.id))
      // Equal similarity (1): the smaller id first, then the session.
      .toStrictEqual(['a', 'b']);
    expect(index.nearest(Float32Array.of(1, 0), 5, 's2', undefined)).toStrictEqual([
      { chunk: b, score: 1 },
    ]);
    index.set(a, Float32Array.of(0, 1));
    expect(index.nearest(Float32Array.of(0, 5), 5, 's1', undefined)[0]?.score).toBe(1);
    index.set(a, Float32Array.of(0, 0));
    // A zero vector has no direction: never a hit, even at the lowest floor; b is orthogonal.
    expect(index.nearest(Float32Array.of(0, 1), 5, undefined, -1)).toStrictEqual([
      { chunk: b, score: 0 },
    ]);
    expect(index.nearest(Float32Array.of(0, 1), 5, undefined, undefined)).toStrictEqual([]);
    index.delete(b);
    expect(index.nearest(Float32Array.of(1, 0), 5, undefined, -1)).toStrictEqual([]);
    expect(index.nearest(Float32Array.of(0, 0), 5, undefined, -1)).toStrictEqual([]);
  });
});
