import { describe, expect, it } from 'vitest';
import { indexAfterSeq, selectSeqRange } from './seq-range.ts';

/** A read-only array of `{ seq }` of any length that counts how many elements were read. */
function countingLog(length: number, seqOf: (i: number) => number = (i) => i + 1) {
  const counter = { reads: 0 };
  const log = new Proxy({ length } as ArrayLike<{ seq: number }>, {
    get(target, key) {
      if (key === 'length') return target.length;
      counter.reads += 1;
      return { seq: seqOf(Number(key)) };
    },
  });
  return { log, counter };
}

describe('selectSeqRange', () => {
  it('finds a tail of any session in O(log n) element reads', () => {
    const { log, counter } = countingLog(1_000_000_000);
    expect(selectSeqRange(log, { limit: 20, from: 'end' })).toStrictEqual({
      start: 999_999_980,
      end: 1_000_000_000,
    });
    expect(counter.reads).toBe(0);
    expect(selectSeqRange(log, { limit: 20, from: 'end', beforeSeq: 500 })).toStrictEqual({
      start: 479,
      end: 499,
    });
    expect(counter.reads).toBeLessThanOrEqual(31);
  });

  it('handles gaps in seqs (after compaction or import)', () => {
    const log = [1, 2, 5, 9, 10].map((seq) => ({ seq }));
    expect(selectSeqRange(log, { afterSeq: 3 })).toStrictEqual({ start: 2, end: 5 });
    expect(selectSeqRange(log, { beforeSeq: 9 })).toStrictEqual({ start: 0, end: 3 });
    expect(selectSeqRange(log, { afterSeq: 4, beforeSeq: 6 })).toStrictEqual({ start: 2, end: 3 });
    expect(selectSeqRange(log, { afterSeq: 9, beforeSeq: 2 })).toStrictEqual({ start: 4, end: 4 });
    expect(selectSeqRange(log, { limit: 0, from: 'end' })).toStrictEqual({ start: 5, end: 5 });
  });

  it('indexAfterSeq returns the insertion point', () => {
    const log = [3, 4, 8].map((seq) => ({ seq }));
    expect([0, 3, 4, 5, 8, 9].map((seq) => indexAfterSeq(log, seq))).toStrictEqual([
      0, 1, 2, 2, 3, 3,
    ]);
    expect(indexAfterSeq([], 1)).toBe(0);
  });
});
