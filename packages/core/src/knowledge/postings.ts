/**
 * The documents (slots) holding one term, with the term's frequency in each, sorted by slot.
 * Slots are handed out in increasing order, so appending keeps a posting sorted; sorted
 * postings let a search look a document up with a galloping search instead of a full scan.
 */
export interface Posting {
  slots: Int32Array;
  tfs: Int32Array;
  /** Each document's length (as `Bm25SearchState.lengths`), read in order instead of by slot. */
  lengths: Int32Array;
  size: number;
  /** Highest term frequency in the posting (bounds what the term can add to a score). */
  maxTf: number;
  /**
   * A tighter bound, kept by the search (`termImpactBound`): at least every entry's
   * `tf / (tf + normBase + impactNorm · length)`, for the norm slope `impactNorm` (-1: not
   * computed yet). A bound for any slope at least `impactNorm`; removals keep it a bound.
   */
  impactNorm: number;
  maxImpact: number;
}

export function createPosting(): Posting {
  return {
    slots: new Int32Array(4),
    tfs: new Int32Array(4),
    lengths: new Int32Array(4),
    size: 0,
    maxTf: 0,
    impactNorm: -1,
    maxImpact: 0,
  };
}

/** Adds `slot` (larger than every slot in the posting) with its term frequency and length. */
export function appendPosting(posting: Posting, slot: number, tf: number, length: number): void {
  if (posting.size === posting.slots.length) {
    posting.slots = growInt32(posting.slots, posting.size * 2);
    posting.tfs = growInt32(posting.tfs, posting.size * 2);
    posting.lengths = growInt32(posting.lengths, posting.size * 2);
  }
  posting.slots[posting.size] = slot;
  posting.tfs[posting.size] = tf;
  posting.lengths[posting.size] = length;
  posting.size++;
  if (tf > posting.maxTf) posting.maxTf = tf;
}

/**
 * Drops the entries whose slot is in `dead` (sorted ascending), keeping the order. Finds each
 * dead slot with a galloping search and moves the runs between them with `copyWithin`, so a
 * few removals from a long posting cost O(d · log(n / d)) searches plus one block move, not a
 * set lookup per entry. `maxTf` is recomputed only when an entry holding it went.
 */
export function removeSlots(posting: Posting, dead: Int32Array): void {
  const { slots, tfs } = posting;
  const size = posting.size;
  let read = 0;
  let write = 0;
  let cursor = 0;
  let lostMax = false;
  for (let d = 0; d < dead.length && cursor < size; d++) {
    const at = seekPosting(posting, dead[d] as number, cursor);
    cursor = at;
    if (at >= size) break;
    if (slots[at] !== dead[d]) continue;
    if (tfs[at] === posting.maxTf) lostMax = true;
    if (write !== read) moveRun(posting, write, read, at);
    write += at - read;
    read = at + 1;
    cursor = read;
  }
  if (read === write) return;
  moveRun(posting, write, read, size);
  posting.size = write + (size - read);
  if (!lostMax) return;
  let maxTf = 0;
  for (let i = 0; i < posting.size; i++) if ((tfs[i] as number) > maxTf) maxTf = tfs[i] as number;
  posting.maxTf = maxTf;
}

/** Moves entries [from, to) down to `target` (target < from). */
function moveRun(posting: Posting, target: number, from: number, to: number): void {
  posting.slots.copyWithin(target, from, to);
  posting.tfs.copyWithin(target, from, to);
  posting.lengths.copyWithin(target, from, to);
}

/** Renames every slot through `map` (increasing, so the order is kept). */
export function renumberPosting(posting: Posting, map: Int32Array): void {
  for (let i = 0; i < posting.size; i++) {
    posting.slots[i] = map[posting.slots[i] as number] as number;
  }
}

/**
 * The first index `>= from` whose slot is `>= slot` (`size` if none): gallops forward from
 * `from`, then bisects, so walking a sorted list of slots through a posting costs
 * O(count · log(size / count)).
 */
export function seekPosting(posting: Posting, slot: number, from: number): number {
  const { slots, size } = posting;
  if (from >= size || (slots[from] as number) >= slot) return from;
  let lo = from;
  let step = 1;
  let hi = lo + step;
  while (hi < size && (slots[hi] as number) < slot) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > size) hi = size;
  // slots[lo] < slot, and hi === size or slots[hi] >= slot.
  while (lo + 1 < hi) {
    const mid = (lo + hi) >> 1;
    if ((slots[mid] as number) < slot) lo = mid;
    else hi = mid;
  }
  return hi;
}

function growInt32(array: Int32Array, capacity: number): Int32Array {
  const next = new Int32Array(capacity);
  next.set(array.subarray(0, Math.min(array.length, capacity)));
  return next;
}
