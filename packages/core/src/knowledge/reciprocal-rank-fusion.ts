/** One entry of a ranked list: `key` identifies the item across lists. */
export interface Ranked<T> {
  key: string | number;
  item: T;
}

/**
 * Reciprocal Rank Fusion: each item scores `Σ 1 / (k + rank)` over the lists it appears in
 * (ranks from 1), best first. Only ranks count, so lists with incomparable scores (BM25 and
 * cosine similarity) fuse fairly. Equal scores keep the order `tieBreak` gives. An item keeps
 * the `item` of the first list it appears in.
 */
export function reciprocalRankFusion<T>(
  lists: readonly (readonly Ranked<T>[])[],
  k: number,
  tieBreak: (a: T, b: T) => number,
): { item: T; score: number }[] {
  const fused = new Map<string | number, { item: T; score: number }>();
  for (const list of lists) {
    list.forEach(({ key, item }, i) => {
      const entry = fused.get(key) ?? { item, score: 0 };
      entry.score += 1 / (k + i + 1);
      fused.set(key, entry);
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || tieBreak(a.item, b.item));
}
