/**
 * The `k` best of `count` candidates (`items[0..count)`), best first, without sorting them all:
 * a bounded binary heap whose root is the worst kept item, so a candidate that scores below the
 * root is rejected with one comparison, and one that enters costs O(log k). O(count · log k).
 *
 * Order: higher `scores[item]` first; equal scores are ordered by `tieBreak(a, b)` (true when a
 * goes first), which must be a strict total order so the result is deterministic.
 */
export function selectTopK(
  items: ArrayLike<number>,
  count: number,
  k: number,
  scores: ArrayLike<number>,
  tieBreak: (a: number, b: number) => boolean,
): number[] {
  const size = Math.min(k, count);
  if (size <= 0) return [];
  const heap: number[] = [];
  for (let i = 0; i < count; i++) {
    const item = items[i] as number;
    if (heap.length < size) {
      heap.push(item);
      siftUp(heap, heap.length - 1, scores, tieBreak);
      continue;
    }
    const root = heap[0] as number;
    // Fast reject: most candidates score below the worst kept one.
    if ((scores[item] as number) < (scores[root] as number)) continue;
    if (isBetter(item, root, scores, tieBreak)) {
      heap[0] = item;
      siftDown(heap, heap.length, scores, tieBreak);
    }
  }
  // Best first: take the worst off the root, from the back.
  const out: number[] = new Array(heap.length);
  for (let n = heap.length; n > 0; n--) {
    out[n - 1] = heap[0] as number;
    heap[0] = heap[n - 1] as number;
    siftDown(heap, n - 1, scores, tieBreak);
  }
  return out;
}

/** Higher score first; equal scores by `tieBreak`. */
function isBetter(
  a: number,
  b: number,
  scores: ArrayLike<number>,
  tieBreak: (a: number, b: number) => boolean,
): boolean {
  const sa = scores[a] as number;
  const sb = scores[b] as number;
  return sa !== sb ? sa > sb : tieBreak(a, b);
}

// Min-heap on "better": the parent is worse than its children.
function siftUp(
  heap: number[],
  index: number,
  scores: ArrayLike<number>,
  tieBreak: (a: number, b: number) => boolean,
): void {
  const item = heap[index] as number;
  let i = index;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const above = heap[parent] as number;
    if (!isBetter(above, item, scores, tieBreak)) break;
    heap[i] = above;
    i = parent;
  }
  heap[i] = item;
}

/** Sifts the root of `heap[0..length)` down. */
function siftDown(
  heap: number[],
  length: number,
  scores: ArrayLike<number>,
  tieBreak: (a: number, b: number) => boolean,
): void {
  if (length === 0) return;
  const item = heap[0] as number;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= length) break;
    const right = left + 1;
    let worst = left;
    if (right < length && isBetter(heap[left] as number, heap[right] as number, scores, tieBreak)) {
      worst = right;
    }
    const child = heap[worst] as number;
    if (!isBetter(item, child, scores, tieBreak)) break;
    heap[i] = child;
    i = worst;
  }
  heap[i] = item;
}

/**
 * The k-th highest of `scores[items[0..count)]` (`count >= k`), with a binary min-heap of the
 * k best seen: O(count · log k).
 */
export function kthScore(
  scores: Float64Array,
  items: Int32Array,
  count: number,
  k: number,
): number {
  const heap = new Float64Array(k);
  let size = 0;
  for (let j = 0; j < count; j++) {
    const score = scores[items[j] as number] as number;
    if (size < k) {
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if ((heap[parent] as number) <= score) break;
        heap[i] = heap[parent] as number;
        i = parent;
      }
      heap[i] = score;
    } else if (score > (heap[0] as number)) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= k) break;
        const right = left + 1;
        const child = right < k && (heap[right] as number) < (heap[left] as number) ? right : left;
        if ((heap[child] as number) >= score) break;
        heap[i] = heap[child] as number;
        i = child;
      }
      heap[i] = score;
    }
  }
  return heap[0] as number;
}

/**
 * The k-th highest of `scores` (`scores.length >= k`). Copies into typed arrays by index:
 * `TypedArray.from` walks an iterator, several times slower on a plain array.
 */
export function kthHighest(scores: ArrayLike<number>, k: number): number {
  const all = scores instanceof Float64Array ? scores : new Float64Array(scores);
  const items = new Int32Array(all.length);
  for (let i = 0; i < items.length; i++) items[i] = i;
  return kthScore(all, items, all.length, k);
}
