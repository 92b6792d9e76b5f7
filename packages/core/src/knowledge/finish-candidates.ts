import type { Bm25SearchState, TermList } from './bm25-state.ts';
import { seekPosting } from './postings.ts';
import { kthScore } from './select-top-k.ts';

/** Recompute the k-th best score once the remaining bound has dropped to this share of the last. */
export const RECHECK = 0.8;

/**
 * Adds terms `from..` to the scores of the scored documents that can still reach the top k,
 * dropping after a term (once the remaining bound has dropped by a fifth) those that no longer
 * can. A term with a long posting is walked once; a short one is searched for each candidate.
 * Returns the survivors.
 */
export function finishCandidates(
  state: Bm25SearchState,
  lists: readonly TermList[],
  rest: Float64Array,
  from: number,
  scored: Int32Array,
  topK: number,
): Int32Array {
  const { normBase, normPerLength, scores, stamps } = state;
  const mark = state.nextStamp();
  const threshold = kthScore(scores, scored, scored.length, topK);
  const bound = rest[from] as number;
  const candidates = new Int32Array(scored.length);
  let count = 0;
  for (let j = 0; j < scored.length; j++) {
    const slot = scored[j] as number;
    if ((scores[slot] as number) + bound < threshold) continue;
    stamps[slot] = mark;
    candidates[count++] = slot;
  }
  // Sorted (for lookups in sorted postings) only once a term is sparse enough to need it.
  let sorted = false;
  let prunedAt = bound;
  for (let i = from; i < lists.length && count > 0; i++) {
    const { posting, weight } = lists[i] as TermList;
    const { slots, tfs, lengths, size } = posting;
    if (count * 8 >= size) {
      // Dense: one pass over the posting, adding to marked candidates.
      for (let j = 0; j < size; j++) {
        const slot = slots[j] as number;
        if (stamps[slot] !== mark) continue;
        const tf = tfs[j] as number;
        scores[slot] =
          (scores[slot] as number) +
          (weight * tf) / (tf + normBase + normPerLength * (lengths[j] as number));
      }
    } else {
      // Sparse: look each candidate up.
      if (!sorted) {
        candidates.subarray(0, count).sort();
        sorted = true;
      }
      let cursor = 0;
      for (let c = 0; c < count; c++) {
        const slot = candidates[c] as number;
        cursor = seekPosting(posting, slot, cursor);
        if (cursor >= size) break;
        if (slots[cursor] !== slot) continue;
        const tf = tfs[cursor] as number;
        scores[slot] =
          (scores[slot] as number) +
          (weight * tf) / (tf + normBase + normPerLength * (lengths[cursor] as number));
      }
    }
    const remaining = rest[i + 1] as number;
    if (i + 1 < lists.length && count > topK && remaining <= prunedAt * RECHECK) {
      prunedAt = remaining;
      const bar = kthScore(scores, candidates, count, topK);
      let kept = 0;
      for (let c = 0; c < count; c++) {
        const slot = candidates[c] as number;
        if ((scores[slot] as number) + remaining >= bar) candidates[kept++] = slot;
        else stamps[slot] = 0;
      }
      count = kept;
    }
  }
  return candidates.subarray(0, count);
}
