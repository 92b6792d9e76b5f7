/**
 * Places where a text may be cut, in order. Boundary 0 is the start of the text and the last
 * boundary its end; `cost[j] - cost[i]` is the number of tokens between boundaries i and j.
 */
export interface TextBoundaries {
  /** UTF-16 offset of each boundary; always between two code points. Non-decreasing. */
  readonly offsets: Int32Array;
  /** Tokens before each boundary. Non-decreasing. */
  readonly cost: Float64Array;
  /**
   * 1 where the boundary is known to fall between characters in the token stream too. A cut at
   * a boundary marked 0 (inside a character that spans tokens) still yields valid text: its
   * offset is the start of that character, which then goes whole to the next chunk.
   */
  readonly clean: Uint8Array;
}

/** Largest boundary index `j >= from` with `cost[j] <= limit`. */
export function lastWithin(b: TextBoundaries, from: number, limit: number): number {
  let lo = from;
  let hi = b.cost.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((b.cost[mid] as number) <= limit) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Smallest boundary index `j` with `cost[j] >= target` (the last index if none). */
export function firstAtLeast(b: TextBoundaries, target: number): number {
  let lo = 0;
  let hi = b.cost.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((b.cost[mid] as number) >= target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Share of the window, at its end, where a chunk may end early at a paragraph, line or sentence break. */
const BREAK_WINDOW = 0.2;
const LF = 0x0a;
const SENTENCE_END = new Set(['.', '!', '?', '…', '。', '！', '？']);
const FULL_WIDTH_END = new Set(['。', '！', '？']);

/**
 * How good a cut at `offset` is: 3 after a blank line (paragraph), 2 at a line break, 1 after
 * the end of a sentence (`.`, `!`, `?` followed by a space or a line end; `。` anywhere), else 0.
 */
export function breakLevel(text: string, offset: number): number {
  if (offset <= 0 || offset >= text.length) return 0;
  if (/\n[ \t\r]*\n[ \t\r]*$/.test(text.slice(Math.max(0, offset - 8), offset))) return 3;
  if (text.charCodeAt(offset - 1) === LF || text.charCodeAt(offset) === LF) return 2;
  let q = offset;
  while (q > 0 && (text[q - 1] === ' ' || text[q - 1] === '\t')) q--;
  const mark = text[q - 1] ?? '';
  if (FULL_WIDTH_END.has(mark)) return 1;
  if (SENTENCE_END.has(mark) && (q < offset || /\s/.test(text[offset] ?? ''))) return 1;
  return 0;
}

/**
 * The latest boundary at or before `from` that still ends past boundary `after` in the text:
 * a clean one if any, else one inside a character (cut at that character's start).
 */
export function stepBack(b: TextBoundaries, from: number, after: number): number {
  const floor = b.offsets[after] as number;
  let fallback = after;
  for (let j = from; j > after && (b.offsets[j] as number) > floor; j--) {
    if (b.clean[j] === 1) return j;
    if (fallback === after) fallback = j;
  }
  return fallback;
}

/**
 * Where the chunk from boundary `start` ends: the last boundary within `chunkSize` tokens, or
 * the best break in the window's last 20%. It must end past boundary `after` in the text; clean
 * boundaries are preferred, then any that fits, then the first one past the window.
 */
export function pickEnd(
  text: string,
  b: TextBoundaries,
  start: number,
  after: number,
  chunkSize: number,
): number {
  const last = b.offsets.length - 1;
  const base = b.cost[start] as number;
  const limit = lastWithin(b, start, base + chunkSize);
  if (limit === last) return last;
  const floor = b.offsets[after] as number;
  const windowStart = firstAtLeast(b, base + Math.ceil(chunkSize * (1 - BREAK_WINDOW)));
  let best = -1;
  let bestLevel = 0;
  let latestClean = -1;
  let latest = -1;
  for (let j = limit; j > after && (b.offsets[j] as number) > floor; j--) {
    if (latest < 0) latest = j;
    if (b.clean[j] !== 1) continue;
    if (latestClean < 0) latestClean = j;
    if (j < windowStart) break;
    const level = breakLevel(text, b.offsets[j] as number);
    if (level > bestLevel) {
      best = j;
      bestLevel = level;
    }
  }
  if (best >= 0) return best;
  if (latestClean >= 0) return latestClean;
  if (latest >= 0) return latest;
  for (let j = limit + 1; j < last; j++) if ((b.offsets[j] as number) > floor) return j;
  return last;
}
