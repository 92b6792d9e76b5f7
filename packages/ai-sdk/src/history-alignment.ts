/*
 * How a call's prompt lines up with the stored conversation: which of its messages the session
 * already holds, and whether the client changed messages the session holds. Pure: it compares
 * message fingerprints (`fingerprint` in message-fingerprint.ts), oldest first, and the README's "What
 * counts as new" states the same rules for users.
 *
 *   H: the prompt without system messages. S: the stored active messages it is compared with
 *   (a tail of the conversation, system messages left out).
 *
 *   a. resent:   the longest prefix of H equal to a suffix of S is stored; the rest is new.
 *   b. left-out: a prefix of H (2+ messages, from an anchor H[0] = S[j]) is a subsequence of S
 *                that ends at S's newest message: the client left some stored messages out
 *                (tool calls and results, say). They stay; the rest of H is new.
 *   c. changed:  H aligns with S (from an anchor H[0] = S[j], or from S[0] when S is the whole
 *                active conversation) with 2+ messages equal at the same place, and then differs:
 *                the stored messages from the first difference on are replaced by H's.
 *   d. new:      no such evidence: all of H is new.
 */

export type HistoryAlignment =
  /** H[keep..] is new; nothing stored changes (`keep` 0: rule d). */
  | { rule: 'resent' | 'left-out' | 'new'; keep: number }
  /** The stored S[replaceFrom..] are replaced by H[keep..] (H[0..keep) equals S[j..replaceFrom)). */
  | { rule: 'changed'; keep: number; replaceFrom: number };

/** Fewest messages that must agree before a prompt counts as re-sent history (rules b and c). */
export const MIN_EVIDENCE = 2;

function resentPrefix(h: readonly string[], s: readonly string[]): number {
  for (let k = Math.min(h.length, s.length); k > 0; k--) {
    let equal = true;
    for (let i = 0; i < k && equal; i++) equal = h[i] === s[s.length - k + i];
    if (equal) return k;
  }
  return 0;
}

/**
 * The longest prefix of H that is a subsequence of S from its first anchor and ends at S's
 * newest message (0 when none has 2+ messages). A leftmost match from the earliest anchor reaches
 * S's end at the latest possible prefix, so one walk suffices.
 */
function leftOutPrefix(h: readonly string[], s: readonly string[]): number {
  const last = s.length - 1;
  let pos = s.indexOf(h[0] as string);
  if (pos < 0 || pos === last) return 0;
  for (let i = 1; i < h.length; i++) {
    let q = pos + 1;
    while (q <= last && s[q] !== h[i]) q++;
    if (q > last) return 0;
    pos = q;
    if (pos === last) return i + 1 >= MIN_EVIDENCE ? i + 1 : 0;
  }
  return 0;
}

/** H placed at S[j..]: how long they agree from the start, and how many places agree at all. */
function placed(h: readonly string[], s: readonly string[], j: number) {
  const span = Math.min(h.length, s.length - j);
  let common = 0;
  let evidence = 0;
  for (let i = 0; i < span; i++) {
    if (h[i] !== s[j + i]) continue;
    evidence++;
    if (common === i) common++;
  }
  return { common, evidence };
}

function changedAlignment(
  h: readonly string[],
  s: readonly string[],
  whole: boolean,
): HistoryAlignment | undefined {
  const starts = s.flatMap((m, j) => (m === h[0] ? [j] : []));
  if (whole && s.length > 0 && !starts.includes(0)) starts.unshift(0);
  let best: { keep: number; replaceFrom: number; evidence: number } | undefined;
  for (const j of starts) {
    const { common, evidence } = placed(h, s, j);
    // Agreeing up to S's end is a re-send (rule a), not a change.
    if (evidence < MIN_EVIDENCE || j + common >= s.length) continue;
    // The most evidence wins; on a tie the newest start, which replaces the fewest messages.
    if (best === undefined || evidence >= best.evidence) {
      best = { keep: common, replaceFrom: j + common, evidence };
    }
  }
  return best && { rule: 'changed', keep: best.keep, replaceFrom: best.replaceFrom };
}

/**
 * Lines up the prompt `h` with the stored messages `s` (fingerprints, oldest first). `whole`:
 * `s` is the whole active conversation, so `h` may be aligned with its start even when the
 * first message was edited.
 */
export function alignHistory(
  h: readonly string[],
  s: readonly string[],
  options: { whole: boolean },
): HistoryAlignment {
  if (h.length === 0 || s.length === 0) return { rule: 'new', keep: 0 };
  const resent = resentPrefix(h, s);
  if (resent > 0) return { rule: 'resent', keep: resent };
  if (h.length < MIN_EVIDENCE) return { rule: 'new', keep: 0 };
  const leftOut = leftOutPrefix(h, s);
  if (leftOut > 0) return { rule: 'left-out', keep: leftOut };
  return changedAlignment(h, s, options.whole) ?? { rule: 'new', keep: 0 };
}
