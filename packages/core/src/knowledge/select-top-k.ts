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
  const better = (a: number, b: number): boolean => {
    const sa = scores[a] as number;
    const sb = scores[b] as number;
    return sa !== sb ? sa > sb : tieBreak(a, b);
  };
  const heap: number[] = [];
  for (let i = 0; i < count; i++) {
    const item = items[i] as number;
    if (heap.length < size) {
      heap.push(item);
      siftUp(heap, heap.length - 1, better);
      continue;
    }
    const root = heap[0] as number;
    // Fast reject: most candidates score below the worst kept one.
    if ((scores[item] as number) < (scores[root] as number)) continue;
    if (better(item, root)) {
      heap[0] = item;
      siftDown(heap, 0, better);
    }
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
}

// Min-heap on "better": the parent is worse than its children.
function siftUp(heap: number[], index: number, better: (a: number, b: number) => boolean): void {
  const item = heap[index] as number;
  let i = index;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const above = heap[parent] as number;
    if (!better(above, item)) break;
    heap[i] = above;
    i = parent;
  }
  heap[i] = item;
}

function siftDown(heap: number[], index: number, better: (a: number, b: number) => boolean): void {
  const item = heap[index] as number;
  const length = heap.length;
  let i = index;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= length) break;
    const right = left + 1;
    let worst = left;
    if (right < length && better(heap[left] as number, heap[right] as number)) worst = right;
    const child = heap[worst] as number;
    if (!better(item, child)) break;
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
