import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemError } from '../errors/mem-error.ts';
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter.ts';
import { createByteCounter, createWordCounter } from './__fixtures__/byte-counter.ts';
import { splitText, splitTextSpans, type TextSpan } from './text-splitter.ts';

const o200k = createTokenCounter();
const cl100k = createTokenCounter({ encoding: 'cl100k_base' });

const PIECES = [
  'The deploy failed. ',
  'Rollback done!\n',
  '\n\n',
  'naïve café crème ',
  'Ünïcödé ',
  '東京都庁に行きました。',
  '한국어 텍스트 ',
  '👍🏽',
  '👨‍👩‍👧',
  '🚀🚀🚀',
  'AF-1042 ',
  'e\u0301',
  '𝔘𝔫𝔦',
  '  ',
  '\t',
];
const mixedText = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'grapheme', maxLength: 6 })), {
    maxLength: 60,
  })
  .map((parts) => parts.join(''));
const sizes = fc
  .integer({ min: 4, max: 48 })
  .chain((chunkSize) =>
    fc.record({ chunkSize: fc.constant(chunkSize), chunkOverlap: fc.nat({ max: chunkSize - 1 }) }),
  );

/** The invariants every split must keep, whatever the counter. */
function checkSpans(text: string, spans: TextSpan[], chunkSize: number, counter: TokenCounter) {
  if (text.length === 0) {
    expect(spans).toEqual([]);
    return;
  }
  expect(spans[0]?.start).toBe(0);
  expect(spans.at(-1)?.end).toBe(text.length);
  let rebuilt = '';
  let previous: TextSpan | undefined;
  for (const span of spans) {
    expect(span.text).toBe(text.slice(span.start, span.end));
    expect(span.end).toBeGreaterThan(span.start);
    expect(span.tokenCount).toBe(counter.countText(span.text));
    expect(span.tokenCount).toBeLessThanOrEqual(chunkSize);
    expect(span.text.isWellFormed()).toBe(true);
    if (!text.includes('\uFFFD')) expect(span.text).not.toContain('\uFFFD');
    if (previous !== undefined) {
      expect(span.start).toBeGreaterThan(previous.start);
      expect(span.start).toBeLessThanOrEqual(previous.end);
      expect(span.end).toBeGreaterThan(previous.end);
    }
    rebuilt += text.slice(previous?.end ?? 0, span.end);
    previous = span;
  }
  expect(rebuilt).toBe(text);
}

/** Overlap in tokens of the original sequence, from each span's token positions. */
function overlaps(spans: TextSpan[]): number[] {
  return spans.slice(1).map((span, i) => (spans[i]?.tokens?.end ?? 0) - (span.tokens?.start ?? 0));
}

describe('splitText', () => {
  it.each([
    ['o200k_base', o200k],
    ['cl100k_base', cl100k],
    ['a stateless byte decoder', createByteCounter()],
    ['a counter without encode/decode', createWordCounter()],
  ])('keeps every invariant with %s on emoji, CJK and accents', (_, counter) => {
    fc.assert(
      fc.property(mixedText, sizes, (text, { chunkSize, chunkOverlap }) => {
        const spans = splitTextSpans(text, { chunkSize, chunkOverlap, counter });
        checkSpans(text, spans, chunkSize, counter);
        for (const overlap of overlaps(spans)) {
          expect(overlap).toBeGreaterThanOrEqual(0);
          expect(overlap).toBeLessThanOrEqual(chunkOverlap);
        }
        expect(splitText(text, { chunkSize, chunkOverlap, counter })).toEqual(
          spans.map((s) => s.text),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('cuts ASCII text into exact token windows with the exact overlap', () => {
    const ascii = fc
      .array(fc.constantFrom('alpha ', 'beta, ', 'gamma. ', 'delta\n', '42 ', 'x'), {
        maxLength: 120,
      })
      .map((p) => p.join(''));
    const small = fc
      .integer({ min: 8, max: 40 })
      .chain((size) => fc.tuple(fc.constant(size), fc.nat({ max: Math.floor(size / 2) })));
    fc.assert(
      fc.property(ascii, small, (text, [chunkSize, chunkOverlap]) => {
        const spans = splitTextSpans(text, { chunkSize, chunkOverlap, counter: o200k });
        checkSpans(text, spans, chunkSize, o200k);
        for (const overlap of overlaps(spans)) expect(overlap).toBe(chunkOverlap);
        spans.slice(0, -1).forEach((span) => {
          const length = (span.tokens?.end ?? 0) - (span.tokens?.start ?? 0);
          expect(length).toBeLessThanOrEqual(chunkSize);
          expect(length).toBeGreaterThanOrEqual(Math.ceil(chunkSize * 0.8));
        });
      }),
      { numRuns: 150 },
    );
  });

  it('returns [] for empty text and the text itself when it fits', () => {
    const options = { chunkSize: 512, chunkOverlap: 64, counter: o200k };
    expect(splitText('', options)).toEqual([]);
    expect(splitText('A short note. 👍🏽', options)).toEqual(['A short note. 👍🏽']);
  });

  it('ends a chunk at a paragraph break inside the last 20% of the window', () => {
    const first = `${'word '.repeat(17)}end.\n\n`;
    const text = `${first}${'next '.repeat(40)}`;
    const [chunk] = splitText(text, { chunkSize: 22, chunkOverlap: 0, counter: o200k });
    expect(chunk).toBe(first);
  });

  it('never cuts inside a character that spans tokens', () => {
    const text = '🧑🏽‍🚀'.repeat(40);
    for (const counter of [o200k, createByteCounter()]) {
      const spans = splitTextSpans(text, { chunkSize: 7, chunkOverlap: 2, counter });
      checkSpans(text, spans, 7, counter);
    }
  });

  it('leaves gpt-tokenizer’s shared streaming decoder clean, and survives one left dirty', () => {
    const decode = o200k.decode as (tokens: readonly number[]) => string;
    const encode = o200k.encode as (text: string) => number[];
    const thumbs = encode('👍🏽');
    decode(thumbs.slice(0, 2)); // leaves the partial skin-tone bytes pending in the decoder
    const text = '👍🏽 ok 東京 '.repeat(30);
    checkSpans(
      text,
      splitTextSpans(text, { chunkSize: 9, chunkOverlap: 3, counter: o200k }),
      9,
      o200k,
    );
    expect(decode(thumbs)).toBe('👍🏽');
  });

  it('calls the counter as an object, so class-based counters keep `this`', () => {
    class ClassCounter implements TokenCounter {
      readonly encoding = 'o200k_base';
      readonly replyPrimingTokens = 3;
      readonly #inner = o200k;
      countText(text: string) {
        return this.#inner.countText(text);
      }
      encode(text: string) {
        return this.#inner.encode?.(text) ?? [];
      }
      decode(tokens: readonly number[]) {
        return this.#inner.decode?.(tokens) ?? '';
      }
      countMessage() {
        return 0;
      }
    }
    const counter = new ClassCounter();
    const text = 'Refund ticket AF-1042 was opened. '.repeat(20);
    const spans = splitTextSpans(text, { chunkSize: 16, chunkOverlap: 4, counter });
    checkSpans(text, spans, 16, counter);
    expect(spans.every((s) => s.tokens !== undefined)).toBe(true);
  });

  it('falls back to words when decode does not give the text back', () => {
    const lossy: TokenCounter = { ...o200k, decode: () => 'garbage' };
    const text = 'one two three four five six seven eight nine ten '.repeat(5);
    const spans = splitTextSpans(text, { chunkSize: 8, chunkOverlap: 2, counter: lossy });
    checkSpans(text, spans, 8, lossy);
    expect(spans.every((s) => s.tokens === undefined)).toBe(true);
  });

  it('cuts a word longer than chunkSize between code points', () => {
    const counter = createByteCounter(1);
    const blob = `start ${'Zm9v😀'.repeat(300)} end`;
    const { encode: _e, decode: _d, ...countOnly } = counter;
    const spans = splitTextSpans(blob, { chunkSize: 16, chunkOverlap: 4, counter: countOnly });
    checkSpans(blob, spans, 16, countOnly);
  });

  it.each([
    [{ chunkSize: 0, chunkOverlap: 0 }, 'chunkSize'],
    [{ chunkSize: 1.5, chunkOverlap: 0 }, 'chunkSize'],
    [{ chunkSize: 16, chunkOverlap: 16 }, 'chunkOverlap'],
    [{ chunkSize: 16, chunkOverlap: -1 }, 'chunkOverlap'],
  ])('rejects %j naming %s', (sizesInput, field) => {
    let error: unknown;
    try {
      splitText('text', { ...sizesInput, counter: o200k });
    } catch (e) {
      error = e;
    }
    expect(MemError.hasCode(error, 'MEM_VALIDATION')).toBe(true);
    expect((error as { field: string }).field).toBe(field);
  });
});
