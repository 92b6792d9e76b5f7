import type { ReadOptions } from './store-spec.ts';

/**
 * Index of the first element whose `seq` is greater than `seq`, in an array sorted by `seq`.
 * O(log n): reads touch only the messages they return plus a binary search.
 */
export function indexAfterSeq(messages: ArrayLike<{ seq: number }>, seq: number): number {
  let lo = 0;
  let hi = messages.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((messages[mid] as { seq: number }).seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The `[start, end)` index range that `options` selects from messages sorted by `seq`, found in
 * O(log n) whatever `limit` and `from` are, so a tail read costs O(limit) once sliced.
 */
export function selectSeqRange(
  messages: ArrayLike<{ seq: number }>,
  options: ReadOptions,
): { start: number; end: number } {
  let start = options.afterSeq === undefined ? 0 : indexAfterSeq(messages, options.afterSeq);
  let end =
    options.beforeSeq === undefined
      ? messages.length
      : indexAfterSeq(messages, options.beforeSeq - 1);
  if (end < start) end = start;
  if (options.limit !== undefined && end - start > options.limit) {
    if (options.from === 'end') start = end - options.limit;
    else end = start + options.limit;
  }
  return { start, end };
}
