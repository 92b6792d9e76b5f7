/**
 * Keeps byte-pair encoding near-linear on any text.
 *
 * gpt-tokenizer first splits text with the encoding's pre-tokenizer regex, then runs the BPE merge
 * loop on each piece; that loop is quadratic in the piece's length. Normal text has short pieces
 * (words, numbers, punctuation runs), but text without separators is one huge piece: 120,000
 * spaces took 9.7 s, a 300 KB file 131 s. So text is handed to gpt-tokenizer in parts:
 *
 * - Text whose pieces are all at most `MAX_PIECE_BYTES` long (checked by a cheap scan first) is
 *   passed whole: the count is gpt-tokenizer's own, exactly.
 * - Otherwise the encoding's own pre-tokenizer regex is applied here. The text between long
 *   pieces is passed in runs, cut only where the pre-tokenizer gives the same pieces on both sides
 *   (after a non-whitespace character; whitespace-ending pieces one by one), so it is counted
 *   exactly too.
 * - A long piece is cut into sub-pieces: a run of one repeated unit (spaces, `=`, NUL, emoji,
 *   `aaaa`, period up to 16 code units) in chunks of about `RUN_CHUNK_BYTES` (an ASCII run at the
 *   last token boundary gpt-tokenizer gives a slightly longer window, so `-=-=…` keeps its
 *   vocabulary tokens), which gpt-tokenizer's merge cache then counts once; anything else (DNA,
 *   unpunctuated CJK, base64) in windows of `WINDOW_BYTES`. Cuts never split a surrogate pair,
 *   nor a combining mark, ZWJ or variation selector from what precedes it.
 *
 * Only the sub-pieces of long pieces are an estimate: a cut can change the tokens next to it,
 * about one token per window. Measured against gpt-tokenizer: runs of one repeated unit exact
 * (a run glued to a word or symbol, `Nooooo…`, may be a token or two off); DNA, hex, base64,
 * random letters and unpunctuated CJK within 1 %; words glued together without spaces within
 * about 6 %. No merge loop runs on more than RUN_CHUNK_BYTES + WINDOW_BYTES bytes,
 * so counting is linear in the text's length.
 */

/** Pre-tokenizer pieces up to this many UTF-8 bytes reach BPE whole (counted exactly). */
export const MAX_PIECE_BYTES = 128;
/** Sub-piece size for a long piece that is not a repeated unit. */
export const WINDOW_BYTES = 64;
/** Sub-piece size for a run of one repeated unit (a multiple of the unit). */
export const RUN_CHUNK_BYTES = 256;
const MAX_PERIOD = 16;
const PERIOD_SAMPLE = 32;
const MAX_LEAD = 16;

const LETTER = 1; // \p{L} or \p{M}: may continue a letter piece
const OTHER = 2; // not a letter, number or whitespace (marks too): may continue a symbol piece
const SPACE = 4; // \s
const NUMBER = 8; // \p{N}: Claude's pre-tokenizer keeps a run of digits as one piece

let classTable: Uint8Array | undefined;

/** Character classes of the BMP, as the pre-tokenizer regexes see them (built once, ~2 ms). */
function classes(): Uint8Array {
  if (classTable !== undefined) return classTable;
  const table = new Uint8Array(0x10000);
  const codes: number[] = [];
  for (let c = 0; c < 0x10000; c++) if (c < 0xd800 || c > 0xdfff) codes.push(c);
  const all = String.fromCharCode(...codes);
  const mark = (re: RegExp, bits: number) => {
    for (const m of all.matchAll(re))
      for (let i = 0; i < m[0].length; i++) table[m[0].charCodeAt(i)]! |= bits;
  };
  mark(/[\p{L}\p{M}]+/gu, LETTER);
  mark(/[^\s\p{L}\p{N}]+/gu, OTHER);
  mark(/\s+/gu, SPACE);
  mark(/\p{N}+/gu, NUMBER);
  // Surrogates stand for astral characters: letters (CJK extension B), symbols (emoji), digits.
  table.fill(LETTER | OTHER | NUMBER, 0xd800, 0xe000);
  classTable = table;
  return table;
}

const utf8Width = (c: number): number =>
  c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
/** Code units that attach to the character before them. */
const joinsPrevious = (c: number): boolean =>
  isLow(c) ||
  c === 0x200d ||
  (c >= 0xfe00 && c <= 0xfe0f) ||
  (c >= 0x300 && c <= 0x36f) ||
  (c >= 0x20d0 && c <= 0x20ff);

function utf8Length(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n += utf8Width(text.charCodeAt(i));
  return n;
}

/**
 * Whether `text` may hold a pre-tokenizer piece longer than `MAX_PIECE_BYTES`: such a piece is
 * a prefix character, a run of one class (letters, symbols, whitespace or digits) and a short suffix, so
 * one class run must be longer than half of it. No false negatives; one pass, no regex.
 */
function mayHaveLongPiece(text: string): boolean {
  const limit = (MAX_PIECE_BYTES - 4) >> 1;
  const table = classes();
  let letter = 0;
  let other = 0;
  let space = 0;
  let number = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const k = table[c]!;
    const w = utf8Width(c);
    letter = k & LETTER ? letter + w : 0;
    other = k & OTHER ? other + w : 0;
    space = k & SPACE ? space + w : 0;
    number = k & NUMBER ? number + w : 0;
    if (letter > limit || other > limit || space > limit || number > limit) return true;
  }
  return false;
}

/** Smallest period (in code units, up to MAX_PERIOD) of the text at `at`, or 0. */
function periodAt(text: string, at: number, end: number): number {
  const n = Math.min(end - at, PERIOD_SAMPLE);
  for (let p = 1; p <= MAX_PERIOD && 2 * p <= n; p++) {
    // A period boundary must not split a surrogate pair.
    if (isHigh(text.charCodeAt(at + p - 1)) && isLow(text.charCodeAt(at + p))) continue;
    let k = at + p;
    while (k < at + n && text.charCodeAt(k) === text.charCodeAt(k - p)) k++;
    if (k === at + n) return p;
  }
  return 0;
}

/** End of a window of at most `maxBytes` from `at`, on a boundary that splits no character. */
function windowEnd(text: string, at: number, end: number, maxBytes: number): number {
  let i = at;
  let bytes = 0;
  while (i < end) {
    const c = text.charCodeAt(i);
    const pair = isHigh(c) && i + 1 < end && isLow(text.charCodeAt(i + 1));
    const w = pair ? 4 : utf8Width(c);
    if (bytes + w > maxBytes && i > at) break;
    bytes += w;
    i += pair ? 2 : 1;
  }
  // Keep a combining mark, ZWJ or variation selector with what precedes it, unless the window
  // would shrink below half (a run of nothing but marks).
  let cut = i;
  const floor = at + ((i - at) >> 1);
  while (cut < end && cut > floor && joinsPrevious(text.charCodeAt(cut))) cut--;
  if (cut > at && cut < end && isHigh(text.charCodeAt(cut - 1)) && isLow(text.charCodeAt(cut)))
    cut--;
  return cut > at ? cut : i;
}

const isAscii = (text: string, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
};

/**
 * Where to cut an ASCII run that repeats a unit: the last token boundary of a window at most
 * `chunk` code units in, so the cut never falls inside a token the vocabulary has for the run
 * (`-=-=…` is `-` then 16-character `=-=-…-` tokens). The same window recurs along the run, so
 * each distinct window is encoded once.
 */
function alignedCut(
  text: string,
  at: number,
  runEnd: number,
  chunk: number,
  tokenLengths: (ascii: string) => number[],
  memo: Map<string, number>,
  fallback: number,
): number {
  // The window stops before a non-ASCII tail (`=====𳑺`); without enough ASCII, cut by period.
  let end = at;
  const limit = Math.min(runEnd, at + chunk + WINDOW_BYTES);
  while (end < limit && text.charCodeAt(end) < 0x80) end++;
  if (end - at <= chunk) return fallback;
  const window = text.slice(at, end);
  let cut = memo.get(window);
  if (cut === undefined) {
    cut = 0;
    let offset = 0;
    for (const length of tokenLengths(window)) {
      offset += length;
      if (offset > chunk) break;
      cut = offset;
    }
    if (cut === 0) cut = chunk;
    memo.set(window, cut);
  }
  return at + cut;
}

/** Hands a long piece `text[from, to)` to `emit` as bounded sub-pieces. */
function splitLongPiece(
  text: string,
  from: number,
  to: number,
  tokenLengths: (ascii: string) => number[],
  emit: (s: string) => void,
): void {
  const memo = new Map<string, number>();
  let i = from;
  while (i < to) {
    let p = periodAt(text, i, to);
    // A piece may open with a few other code units (` =====`, ` Aaaaa`, `👍🏽====`): they go
    // with the first chunk.
    let lead = 0;
    for (let l = 1; p === 0 && i === from && l <= MAX_LEAD; l++) {
      if (isHigh(text.charCodeAt(i + l - 1)) && isLow(text.charCodeAt(i + l))) continue;
      p = periodAt(text, i + l, to);
      if (p > 0) lead = l;
    }
    if (p > 0) {
      const start = i + lead;
      let j = start + p;
      while (j < to && text.charCodeAt(j) === text.charCodeAt(j - p)) j++;
      const runEnd = start + Math.floor((j - start) / p) * p;
      // A short tail (the `\n` a symbol piece ends with, a partial unit) stays with the last chunk;
      // cuts stay inside the run.
      const lastEnd = utf8Length(text, runEnd, to) <= WINDOW_BYTES ? to : runEnd;
      const unitBytes = utf8Length(text, start, start + p);
      const chunk = p * Math.max(1, Math.floor(RUN_CHUNK_BYTES / unitBytes));
      const ascii = isAscii(text, start, start + p);
      if (ascii && i < start && !isAscii(text, i, start)) {
        // A non-ASCII lead alone, so the ASCII run can be cut on its token boundaries.
        emit(text.slice(i, start));
        i = start;
      }
      while (runEnd - i > chunk + lead) {
        const periodic = Math.max(i, start) + chunk;
        const cut = ascii
          ? alignedCut(text, i, lastEnd, chunk, tokenLengths, memo, periodic)
          : periodic;
        emit(text.slice(i, cut));
        i = cut;
      }
      emit(text.slice(i, lastEnd));
      i = lastEnd;
      continue;
    }
    const end = windowEnd(text, i, to, WINDOW_BYTES);
    emit(text.slice(i, end));
    i = end;
  }
}

/** What `forEachBpeInput` needs to know about an encoding. */
export interface PieceSplitter {
  /** The encoding's pre-tokenizer regex (flag `g`). */
  readonly split: RegExp;
  /** Lengths of the tokens of an ASCII text, in characters. */
  tokenLengths(ascii: string): number[];
}

/**
 * Calls `emit` with consecutive parts of `text` (concatenated, they are `text`) such that each
 * part is cheap to byte-pair encode.
 */
export function forEachBpeInput(
  text: string,
  { split, tokenLengths }: PieceSplitter,
  emit: (part: string) => void,
): void {
  // A piece over MAX_PIECE_BYTES has more than MAX_PIECE_BYTES / 3 code units.
  if (text.length * 3 <= MAX_PIECE_BYTES || !mayHaveLongPiece(text)) {
    emit(text);
    return;
  }
  const table = classes();
  const re = new RegExp(split.source, split.flags);
  let start = 0; // first character not yet emitted
  let safe = 0; // a piece boundary >= start after a non-whitespace character, or start
  const flush = (to: number) => {
    if (to === start) return;
    if (safe === to || to === text.length) {
      emit(text.slice(start, to));
    } else {
      // The run ends in whitespace: the pre-tokenizer could join its last pieces differently on
      // their own (`\s+$`), so they go one by one (a piece alone is split into itself).
      if (safe > start) emit(text.slice(start, safe));
      const pieces = new RegExp(split.source, split.flags);
      pieces.lastIndex = safe;
      for (let m = pieces.exec(text); m !== null && m.index < to; m = pieces.exec(text)) emit(m[0]);
    }
    start = to;
    safe = to;
  };
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const from = m.index;
    const to = from + m[0].length;
    if (m[0].length * 3 > MAX_PIECE_BYTES && utf8Length(text, from, to) > MAX_PIECE_BYTES) {
      flush(from);
      splitLongPiece(text, from, to, tokenLengths, emit);
      start = to;
      safe = to;
    } else if (!(table[text.charCodeAt(to - 1)]! & SPACE)) {
      safe = to;
    }
  }
  flush(text.length);
}
