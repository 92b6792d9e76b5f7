import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion } from './reciprocal-rank-fusion.ts';

describe('reciprocalRankFusion', () => {
  it('fuses ranked lists: Σ 1/(k + rank), ties in the given order', () => {
    const item = (id: string, createdAt: number) => ({ id, createdAt });
    const [a, b, c, d] = [item('a', 1), item('b', 1), item('c', 1), item('d', 5)];
    const fused = reciprocalRankFusion(
      [
        [a, b, c].map((x, i) => ({ key: i, item: x })),
        [
          { key: 2, item: c },
          { key: 0, item: a },
          { key: 3, item: d },
        ],
      ],
      60,
      (x, y) => y.createdAt - x.createdAt,
    );
    expect(fused.map((f) => f.item.id)).toStrictEqual(['a', 'c', 'b', 'd']);
    expect(fused.map((f) => f.score)).toStrictEqual([
      1 / 61 + 1 / 62,
      1 / 63 + 1 / 61,
      1 / 62,
      1 / 63,
    ]);
    // b (rank 2 of one list) beats d (rank 3); at equal ranks, the tie-break (newer) decides.
    const tie = reciprocalRankFusion(
      [[{ key: 1, item: b }], [{ key: 3, item: d }]],
      60,
      (x, y) => y.createdAt - x.createdAt,
    );
    expect(tie.map((f) => f.item.id)).toStrictEqual(['d', 'b']);
  });
});
