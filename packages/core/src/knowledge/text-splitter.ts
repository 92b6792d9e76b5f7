import { MemValidationError } from '../errors/errors.ts';
import type { TokenCounter } from '../tokens/token-counter.ts';
import { firstAtLeast, pickEnd, stepBack, type TextBoundaries } from './text-boundaries.ts';
import { tokenBoundaries } from './token-boundaries.ts';
import { wordBoundaries } from './word-boundaries.ts';

export interface SplitTextOptions {
  /** Most tokens per chunk (a positive integer); the profile's `text_splitter.chunk_size`. */
  chunkSize: number;
  /** Tokens shared by consecutive chunks, `0 <= chunkOverlap < chunkSize`. */
  chunkOverlap: number;
  counter: TokenCounter;
}

/** A chunk and where it sits in the text. */
export interface TextSpan {
  /** `source.slice(start, end)`. */
  text: string;
  /** UTF-16 offsets in the source text. */
  start: number;
  end: number;
  /** `counter.countText(text)`. */
  tokenCount: number;
  /** Positions in `counter.encode(source)`, when the counter can encode. */
  tokens?: { start: number; end: number };
}

/**
 * Cuts `text` into chunks of at most `chunkSize` tokens, consecutive chunks sharing
 * `chunkOverlap` tokens. Chunks are exact substrings: dropping each chunk's overlap with the
 * previous one and concatenating gives back `text`. See `splitTextSpans`.
 */
export function splitText(text: string, options: SplitTextOptions): string[] {
  return splitTextSpans(text, options).map((span) => span.text);
}

/**
 * `splitText` with offsets. Empty text gives no chunks.
 *
 * - With `counter.encode` and `counter.decode`, chunks are cut on token boundaries: a chunk is
 *   the next `chunkSize` tokens, and the next chunk starts `chunkOverlap` tokens before its end.
 *   Within the last 20% of the window, a chunk ends early at the best break there (blank line,
 *   then line break, then sentence end). A cut never splits a character that spans tokens
 *   (emoji, CJK): the end moves back to the character's start, the next start forward past it,
 *   so chunks never contain a U+FFFD the text did not have, and an overlap may be a few tokens
 *   short there. When `decode` does not give the text back, words are used instead.
 * - Without them, chunks are cut between words, each word costing `countText(word)` tokens (a
 *   word longer than `chunkSize` tokens is cut between code points), with the same preferences;
 *   the overlap is the longest run of whole words within `chunkOverlap` tokens.
 *
 * Overlap never stops progress: when a chunk cannot end past the previous one within
 * `chunkSize` tokens, it starts where the previous one ended instead.
 *
 * Every chunk satisfies `counter.countText(chunk) <= chunkSize` (checked, and cut shorter when
 * the chunk re-tokenizes longer on its own), except a single code point that alone costs more.
 *
 * @throws MemValidationError when `chunkSize` or `chunkOverlap` is out of range.
 */
export function splitTextSpans(text: string, options: SplitTextOptions): TextSpan[] {
  const { chunkSize, chunkOverlap, counter } = options;
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) {
    throw new MemValidationError(
      'chunkSize',
      `[mem/knowledge] chunkSize must be a positive integer, got ${String(chunkSize)}.`,
    );
  }
  if (!Number.isSafeInteger(chunkOverlap) || chunkOverlap < 0 || chunkOverlap >= chunkSize) {
    throw new MemValidationError(
      'chunkOverlap',
      `[mem/knowledge] chunkOverlap must be an integer from 0 to chunkSize - 1 (${chunkSize - 1}), got ${String(chunkOverlap)}.`,
    );
  }
  if (text.length === 0) return [];
  if (counter.encode !== undefined && counter.decode !== undefined) {
    // Called as methods: a counter may be a class instance relying on `this`.
    const encode = (piece: string) => counter.encode?.(piece) ?? [];
    const decode = (tokens: readonly number[]) => counter.decode?.(tokens) ?? '';
    const boundaries = tokenBoundaries(text, encode(text), encode, decode);
    if (boundaries !== undefined) return selectSpans(text, boundaries, options, true);
  }
  const count = (piece: string) => counter.countText(piece);
  return selectSpans(text, wordBoundaries(text, chunkSize, count), options, false);
}

/** Walks the boundaries, choosing where each chunk ends and where the next one starts. */
function selectSpans(
  text: string,
  b: TextBoundaries,
  options: SplitTextOptions,
  byTokens: boolean,
): TextSpan[] {
  const { chunkSize, chunkOverlap } = options;
  const last = b.offsets.length - 1;
  const spans: TextSpan[] = [];
  let start = 0;
  // Boundary where the previous chunk ended: the next one must end past it in the text.
  let after = 0;
  for (;;) {
    let fitted = fitChunk(text, b, start, after, options);
    if (fitted.tokenCount > chunkSize && start < after) {
      // The overlap leaves no room to move forward: start where the last chunk ended.
      start = after;
      fitted = fitChunk(text, b, start, after, options);
    }
    const { index, ...span } = fitted;
    if (byTokens) span.tokens = { start: b.cost[start] as number, end: b.cost[index] as number };
    spans.push(span);
    if (index >= last) return spans;
    start = nextStart(b, start, index, chunkOverlap);
    after = index;
  }
}

type FittedChunk = TextSpan & { index: number };

/** The chunk from boundary `start` (see `pickEnd`), cut shorter while it counts over `chunkSize`. */
function fitChunk(
  text: string,
  b: TextBoundaries,
  start: number,
  after: number,
  options: SplitTextOptions,
): FittedChunk {
  const { chunkSize, counter } = options;
  const from = b.offsets[start] as number;
  let index = pickEnd(text, b, start, after, chunkSize);
  for (;;) {
    const to = b.offsets[index] as number;
    const piece = text.slice(from, to);
    const tokenCount = counter.countText(piece);
    const chunk = { text: piece, start: from, end: to, tokenCount, index };
    if (tokenCount <= chunkSize) return chunk;
    const back = stepBack(b, index - Math.max(1, tokenCount - chunkSize), after);
    if (back <= after) return chunk;
    index = back;
  }
}

/** Where the next chunk starts: `chunkOverlap` tokens before `end`, moved forward to a clean boundary. */
function nextStart(b: TextBoundaries, start: number, end: number, chunkOverlap: number): number {
  const from = b.offsets[start] as number;
  let j = Math.max(start + 1, firstAtLeast(b, (b.cost[end] as number) - chunkOverlap));
  while (j < end && (b.clean[j] !== 1 || (b.offsets[j] as number) <= from)) j++;
  return j;
}
