import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kthHighest, selectTopK } from './select-top-k.ts';

describe('selectTopK', () => {
  it('returns the k best, best first, as a full sort would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 70 }),
        (scores, k) => {
          const items = Int32Array.from(scores.keys());
          // Higher score first, then lower index: a strict total order.
          const byIndex = (a: number, b: number) => a < b;
          const better = (a: number, b: number) =>
            scores[a] !== scores[b] ? (scores[a] as number) > (scores[b] as number) : a < b;
          const expected = [...items].sort((a, b) => (better(a, b) ? -1 : 1)).slice(0, k);
          expect(selectTopK(items, items.length, k, scores, byIndex)).toEqual(expected);
        },
      ),
    );
  });

  it('reads only the first `count` items', () => {
    const items = Int32Array.from([0, 1, 2, 3]);
    const scores = [5, 1, 9, 7];
    expect(selectTopK(items, 2, 5, scores, (a, b) => a < b)).toEqual([0, 1]);
    expect(selectTopK(items, 0, 5, scores, (a, b) => a < b)).toEqual([]);
  });
});

describe('kthHighest', () => {
  it('is the k-th highest score, as sorting every score finds it, for plain and typed arrays', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 300 }),
        fc.nat(),
        (raw, pick) => {
          const scores = raw.map((x) => x + 0); // -0 and 0 are the same score
          const k = 1 + (pick % scores.length);
          const expected = [...scores].sort((a, b) => b - a)[k - 1];
          expect(kthHighest(scores, k)).toBe(expected);
          expect(kthHighest(Float64Array.from(scores), k)).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
