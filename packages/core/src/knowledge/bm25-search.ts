import { bm25Weight, pickTerms } from './bm25-scope.ts';
import type { Bm25SearchState, TermList } from './bm25-state.ts';
import { termImpact } from './bm25-state.ts';
import { finishCandidates, RECHECK } from './finish-candidates.ts';
import type { Posting } from './postings.ts';
import { kthScore, selectTopK } from './select-top-k.ts';

export type { Bm25SearchState, TermList } from './bm25-state.ts';
export { BM25_B, BM25_K1 } from './bm25-state.ts';

// Float slack on upper bounds, so rounding can never prune a document that could still tie.
const SLACK = 1 + 1e-9;

/** The posting's impact bound is recomputed with this share of the current norm slope, so it stays valid while the average document grows by up to ~1/9. */
const IMPACT_MARGIN = 0.9;

/**
 * At least `termImpact(tf, length, normPerLength)` of every document in `posting`: its kept
 * bound (`Posting.maxImpact`), recomputed in one pass when the average document length has
 * moved out of the margin (a lower slope gives a higher impact, so a bound computed with a
 * slope at most the current one holds).
 */
function termImpactBound(state: Bm25SearchState, posting: Posting): number {
  const slope = state.normPerLength;
  if (posting.impactNorm >= 0 && posting.impactNorm <= slope && posting.impactNorm >= 0.8 * slope) {
    return posting.maxImpact;
  }
  const norm = slope * IMPACT_MARGIN;
  const { tfs, lengths, size } = posting;
  let max = 0;
  for (let j = 0; j < size; j++) {
    const impact = termImpact(tfs[j] as number, lengths[j] as number, norm);
    if (impact > max) max = impact;
  }
  posting.impactNorm = norm;
  posting.maxImpact = max;
  return max;
}

/**
 * The slots of the `topK` best documents for distinct `terms`, best first (their scores are in
 * `state.scores`); `session` (a session number, 0 for all) and `user` (a user number, 0 for
 * all) restrict the candidates.
 *
 * Term-at-a-time with max-score pruning, exact over the selected terms (same result as scoring
 * every document with them; at most `MAX_QUERY_TERMS`, the rarest, are kept): each
 * term has an upper bound on what it can add to any score, and terms are scored highest weight
 * (rarest) first. Once the bounds of the terms left sum to less than the current k-th best
 * score, no unscored document can reach the top k: the search stops opening documents and only
 * finishes those that still can (`finishCandidates`), mostly the few that matched rare terms.
 */
export function searchBm25(
  state: Bm25SearchState,
  terms: readonly string[],
  topK: number,
  session: number,
  user = 0,
): number[] {
  let lists: TermList[] = [];
  for (const term of terms) {
    const posting = state.postings.get(term);
    if (posting === undefined || posting.size === 0) continue;
    const weight = bm25Weight(state.size, posting.size);
    const bound = (weight * posting.maxTf) / (posting.maxTf + state.minNorm);
    const tight = weight * termImpactBound(state, posting);
    lists.push({ posting, weight, bound, tight: Math.min(bound, tight) });
  }
  if (lists.length === 0) return [];
  // Query term selection: the rarest terms carry the ranking signal; a long question's common
  // words add little to any score but walk the longest postings. Score the rarest ones, highest
  // weight first (equal weights in query order): the order depends only on the collection's
  // statistics, so a knowledge base that keeps only those ranks the same (`rankScope`).
  lists = pickTerms(lists);
  const rest = new Float64Array(lists.length + 1);
  for (let i = lists.length - 1; i >= 0; i--) {
    rest[i] = ((rest[i + 1] as number) + (lists[i] as TermList).tight) * SLACK;
  }

  const { normBase, normPerLength, sessionOf, userOf, scores, stamps, touched } = state;
  const stamp = state.nextStamp();
  let count = 0;
  let best = 0;
  // The k-th best score costs a pass over the scored documents: look again only after the
  // bound of the remaining terms has dropped by a fifth.
  let checkedAt = Number.POSITIVE_INFINITY;
  let i = 0;
  for (; i < lists.length; i++) {
    const remaining = rest[i] as number;
    if (count >= topK && remaining < best && remaining <= checkedAt * RECHECK) {
      checkedAt = remaining;
      if (remaining < kthScore(scores, touched, count, topK)) break;
    }
    const { posting, weight } = lists[i] as TermList;
    const { slots, tfs, lengths, size } = posting;
    for (let j = 0; j < size; j++) {
      const slot = slots[j] as number;
      if (session !== 0 && sessionOf[slot] !== session) continue;
      if (user !== 0 && userOf[slot] !== user) continue;
      const tf = tfs[j] as number;
      let score = (weight * tf) / (tf + normBase + normPerLength * (lengths[j] as number));
      if (stamps[slot] === stamp) score += scores[slot] as number;
      else {
        stamps[slot] = stamp;
        touched[count++] = slot;
      }
      scores[slot] = score;
      if (score > best) best = score;
    }
  }
  if (i === lists.length) return selectTopK(touched, count, topK, scores, state.tieBreak);
  const scored = touched.subarray(0, count);
  const candidates = finishCandidates(state, lists, rest, i, scored, topK);
  return selectTopK(candidates, candidates.length, topK, scores, state.tieBreak);
}
