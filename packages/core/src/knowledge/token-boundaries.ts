import type { TextBoundaries } from './text-boundaries.ts';

const REPLACEMENT = '\uFFFD';
const TRAILING_REPLACEMENTS = /\uFFFD+$/;
/** A character never spans more tokens than this; a longer unaligned run means the decoder lies. */
const MAX_GROUP = 32;

type Encode = (text: string) => number[];
type Decode = (tokens: readonly number[]) => string;

/**
 * Maps each token boundary of `tokens = encode(text)` to a UTF-16 offset in `text`, or returns
 * undefined when `decode` does not reproduce `text` (the caller then splits on words).
 *
 * A byte-level BPE token may end inside a multi-byte character (an emoji, a CJK character).
 * Decoders handle that partial sequence in one of two ways, and both are handled here:
 * - a stateless decoder yields U+FFFD: the group of tokens is extended until it decodes cleanly;
 * - gpt-tokenizer's decoder is one `TextDecoder` shared by the whole process in streaming mode:
 *   it holds the partial bytes back and emits them with the *next* `decode` call, whoever makes
 *   it. Decoding the tokens in order, one group after the other, is then exactly a streaming
 *   decode, and a boundary inside a character gets the offset of that character's start.
 * The whole sequence is decoded first (so no bytes are left pending from an earlier caller), and
 * the last group ends at the end of the text (so none are left pending for a later one).
 *
 * Offsets always fall between code points, so cutting there never produces U+FFFD. A boundary
 * is marked clean when it provably falls between characters: the next character is ASCII (a
 * split character would be multi-byte), or the text since the previous clean boundary encodes
 * to exactly the tokens since then (same tokens, same bytes).
 */
export function tokenBoundaries(
  text: string,
  tokens: readonly number[],
  encode: Encode,
  decode: Decode,
): TextBoundaries | undefined {
  if (decode(tokens) !== text && decode(tokens) !== text) return undefined;
  const n = tokens.length;
  const offsets = new Int32Array(n + 1);
  const cost = new Float64Array(n + 1);
  const clean = new Uint8Array(n + 1);
  for (let i = 0; i <= n; i++) cost[i] = i;
  clean[0] = 1;
  let lastClean = 0;
  /** Records boundary `j` at `offset`, and whether it provably falls between characters. */
  const place = (j: number, offset: number): void => {
    offsets[j] = offset;
    const between =
      j === n ||
      text.charCodeAt(offset) < 0x80 ||
      sameTokens(encode(text.slice(offsets[lastClean], offset)), tokens.slice(lastClean, j));
    if (between) {
      clean[j] = 1;
      lastClean = j;
    }
  };
  let anchor = 0;
  let at = 0;
  for (let i = 1; i <= n; i++) {
    const group = tokens.slice(anchor, i);
    const piece = decode(group);
    const next = at + piece.length;
    const fits = text.startsWith(piece, at);
    const accepted = i === n ? fits && next === text.length : fits && !piece.endsWith(REPLACEMENT);
    if (!accepted) {
      if (i - anchor < MAX_GROUP && i < n) continue;
      // Unaligned: finish the stream so a shared streaming decoder is left with nothing pending.
      if (i < n) decode(tokens.slice(i));
      return undefined;
    }
    if (i - anchor > 1) placeInside(anchor, i, at, next);
    place(i, next);
    anchor = i;
    at = next;
  }
  return { offsets, cost, clean };

  /**
   * Boundaries inside a group that only decoded cleanly as a whole (a stateless decoder): each
   * at the end of the complete characters of its prefix.
   */
  function placeInside(from: number, to: number, at: number, next: number): void {
    let floor = at;
    for (let j = from + 1; j < to; j++) {
      const prefix = decode(tokens.slice(from, j)).replace(TRAILING_REPLACEMENTS, '');
      if (text.startsWith(prefix, at)) floor = Math.min(next, Math.max(floor, at + prefix.length));
      place(j, floor);
    }
    // Flush what a streaming decoder may hold back from the partial prefixes.
    decode(tokens.slice(from, to));
  }
}

function sameTokens(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
