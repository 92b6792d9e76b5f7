import fc from 'fast-check';
import cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import o200k from 'gpt-tokenizer/encoding/o200k_base';
import {
  CL100K_TOKEN_SPLIT_REGEX,
  O200K_TOKEN_SPLIT_REGEX,
} from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import {
  PATHOLOGICAL_KINDS,
  type PathologicalKind,
  pathologicalText,
} from './__fixtures__/pathological-texts.ts';
import { MAX_PIECE_BYTES } from './bounded-pieces.ts';
import { createTokenCounter } from './token-counter.ts';

// Issue 10, case 5: the byte-pair merge is quadratic in the length of one pre-tokenizer piece, so
// counting text without separators (120k spaces: 9.7 s; a 300 KB file: 131 s) froze `append`.

const PLAIN = { disallowedSpecial: new Set<string>() };
const encodings = [
  ['o200k_base', o200k, O200K_TOKEN_SPLIT_REGEX],
  ['cl100k_base', cl100k, CL100K_TOKEN_SPLIT_REGEX],
] as const;
const MB = 1_000_000;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const longestPiece = (text: string, split: RegExp) => {
  let max = 0;
  for (const [piece] of text.matchAll(split)) max = Math.max(max, bytes(piece));
  return max;
};

/** Text as people and tools write it: words, numbers, punctuation, whitespace, any Unicode. */
const fragment = fc.oneof(
  fc.stringMatching(/^[A-Za-z]{1,14}$/),
  fc.stringMatching(/^[0-9]{1,7}$/),
  fc.constantFrom(' ', '  ', '\n', '\n\n', '\r\n', '\t', ' \n ', '    '),
  fc.constantFrom(
    '.',
    ',',
    '!?',
    '...',
    '->',
    '=>',
    '{"a":',
    '"}',
    "'s",
    "'ll",
    '//',
    '<|endoftext|>',
  ),
  fc.constantFrom(
    'über',
    'Привет',
    '東京',
    '日本語の文章',
    'café',
    '😀',
    '👍🏽',
    '👨‍👩‍👧',
    'a\u0301',
  ),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const normalText = fc.array(fragment, { maxLength: 60 }).map((parts) => parts.join(''));

describe('token counting stays near-linear on any input (issue 10, case 5)', () => {
  for (const [encoding, api, split] of encodings) {
    const counter = createTokenCounter({ encoding });

    it(`${encoding}: counts normal text exactly like gpt-tokenizer (property)`, () => {
      fc.assert(
        fc.property(normalText, (text) => {
          fc.pre(longestPiece(text, split) <= MAX_PIECE_BYTES);
          expect(counter.countText(text)).toBe(api.countTokens(text, PLAIN));
          expect(counter.encode!(text)).toEqual(api.encode(text, PLAIN));
        }),
        { numRuns: 300 },
      );
    });

    it(`${encoding}: counts the text around a long run exactly (property)`, () => {
      // A long run sends the whole text down the cutting path; the text before and after it must
      // still get gpt-tokenizer's tokens (runs of one repeated unit are cut exactly too; a run
      // glued to a word, `Nooooo…`, is an estimate: see the next property).
      const around = fc.tuple(
        normalText,
        fc.constantFrom('\n', ' \n', '\n\n', '\t\n'),
        fc.constantFrom('=', 'a', '-=', '😀', '\0'),
        fc.integer({ min: 200, max: 1_200 }),
        fc.constantFrom('\n', ' ', '. ', ''),
        normalText,
      );
      fc.assert(
        fc.property(around, ([before, open, unit, times, close, after]) => {
          const text = before + open + unit.repeat(times) + close + after;
          expect(counter.encode!(text)).toEqual(api.encode(text, PLAIN));
        }),
        { numRuns: 100 },
      );
    });

    it(`${encoding}: keeps encode, decode and countText consistent on text with long runs (property)`, () => {
      const run = fc
        .tuple(
          fc.oneof(
            fc.constantFrom(' ', '=', '\0', '😀', 'a', 'ab', '-=', '\n', '東', 'é'),
            fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }),
          ),
          fc.integer({ min: 1, max: 1_500 }),
        )
        .map(([unit, times]) => unit.repeat(times));
      const text = fc.array(fc.oneof(run, fragment), { maxLength: 8 }).map((p) => p.join(''));
      fc.assert(
        fc.property(text, (t) => {
          const tokens = counter.encode!(t);
          expect(tokens.length).toBe(counter.countText(t));
          expect(counter.decode!(tokens)).toBe(t);
          const exact = api.countTokens(t, PLAIN);
          expect(Math.abs(tokens.length - exact)).toBeLessThanOrEqual(2 + exact * 0.05);
        }),
        { numRuns: 150 },
      );
    });

    describe(`${encoding}: 1 MB without separators`, () => {
      it.each(PATHOLOGICAL_KINDS)(
        '%s: counts, encodes and decodes back',
        (kind: PathologicalKind) => {
          const text = pathologicalText(kind, MB);
          const n = counter.countText(text);
          const tokens = counter.encode!(text);
          expect(tokens.length).toBe(n);
          expect(counter.decode!(tokens) === text).toBe(true);
          // Within 3% of the exact density measured on an 8 KB sample (exact counting of 1 MB
          // without separators would take minutes; that is the bug).
          const sample = pathologicalText(kind, 8_000, 2);
          const density = api.countTokens(sample, PLAIN) / bytes(sample);
          expect(Math.abs(n / bytes(text) - density)).toBeLessThanOrEqual(density * 0.03);
        },
      );
    });

    it(`${encoding}: a long run is an estimate within 1% of gpt-tokenizer, runs of one character exact`, () => {
      for (const kind of PATHOLOGICAL_KINDS) {
        const text = pathologicalText(kind, 6_000, 3);
        const exact = api.countTokens(text, PLAIN);
        const ours = counter.countText(text);
        expect(Math.abs(ours - exact), `${kind}: ${ours} vs ${exact}`).toBeLessThanOrEqual(
          Math.max(1, exact * 0.01),
        );
        if (['spaces', 'nul', 'a-run', 'emoji'].includes(kind)) expect(ours, kind).toBe(exact);
      }
    });
  }

  it('counts a 150k-character summarizer reply of one letter (the reply that blocked appends for 13 s)', () => {
    const counter = createTokenCounter({ model: 'gpt-4o' });
    const reply = 'a'.repeat(150_000);
    expect(counter.countText(reply)).toBe(o200k.countTokens('a'.repeat(15_000)) * 10);
  });
});
