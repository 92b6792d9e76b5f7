import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyzeQuery,
  analyzeText,
  MAX_TERM_LENGTH,
  normalizeText,
  STOPWORDS,
} from './analyze-text.ts';

describe('analyzeText', () => {
  it('lowercases words and drops punctuation', () => {
    expect(analyzeText('Deploy FAILED: Rollback, please!')).toEqual([
      'deploi',
      'fail',
      'rollback',
      'pleas',
    ]);
  });

  it('keeps ids such as AF-1042 whole and as their parts', () => {
    expect(analyzeText('Ticket AF-1042 is blocked')).toEqual([
      'ticket',
      'af-1042',
      'af',
      '1042',
      'block',
    ]);
    expect(analyzeText('order_id v2.1')).toEqual(['order_id', 'order', 'id', 'v2.1', 'v2', '1']);
  });

  it('does not join words across sentence punctuation or spaced dashes', () => {
    expect(analyzeText('It ended. Next - step')).toEqual(['end', 'next', 'step']);
  });

  it('keeps numbers', () => {
    expect(analyzeText('Invoice 20931 costs 3.50 EUR, 42')).toEqual([
      'invoic',
      '20931',
      'cost',
      '3.50',
      '3',
      '50',
      'eur',
      '42',
    ]);
  });

  it('strips a trailing possessive, with straight or curly apostrophes', () => {
    expect(analyzeText("Alice's car and Bob’s bike")).toEqual(['alic', 'car', 'bob', 'bike']);
    expect(analyzeText("AF-1042's owner")).toEqual(['af-1042', 'af', '1042', 'owner']);
    expect(analyzeText("James' sister")).toEqual(['jame', 'sister']);
  });

  it('drops stopwords, also as compound parts, and nothing else', () => {
    expect(analyzeText('the and of it is')).toEqual([]);
    expect(analyzeText('state-of-the-art')).toEqual(['state-of-the-art', 'state', 'art']);
    expect(analyzeText('not before after')).toEqual(['not', 'befor', 'after']);
    for (const word of STOPWORDS) expect(analyzeText(word)).toEqual([]);
  });

  it('is Unicode-aware: accents folded, scripts kept, compatibility forms folded', () => {
    expect(analyzeText('Café CRÈME naïve')).toEqual(['cafe', 'creme', 'naiv']);
    // Decomposed input (e + combining acute) gives the same terms as composed input.
    expect(analyzeText('Cafe\u0301')).toEqual(analyzeText('Café'));
    expect(analyzeText('Привет, мир')).toEqual(['привет', 'мир']);
    expect(analyzeText('नमस्ते दुनिया')).toEqual(['नमस्ते', 'दुनिया']);
    expect(analyzeText('한국어 텍스트')).toEqual(['한국어', '텍스트']);
    expect(analyzeText('ＡＢＣ１２３ ﬁle')).toEqual(['abc123', 'file']);
  });

  it('cuts Han and kana runs into bigrams, and keeps a single character', () => {
    expect(analyzeText('東京都')).toEqual(['東京', '京都']);
    expect(analyzeText('猫')).toEqual(['猫']);
    expect(analyzeText('GPT模型')).toEqual(['gpt', '模型']);
  });

  it('stems English words, so inflections match, and leaves other words alone', () => {
    expect(analyzeText('painted painting paints')).toEqual(['paint', 'paint', 'paint']);
    expect(analyzeText('adopted adoption')).toEqual(['adopt', 'adopt']);
    expect(analyzeText('straße миры v2')).toEqual(['straße', 'миры', 'v2']);
  });

  it('ignores emoji and symbols', () => {
    expect(analyzeText('🚀 launch ✅ done')).toEqual(['launch', 'done']);
  });

  it('cuts very long terms, identically on both sides', () => {
    const long = 'x'.repeat(200);
    expect(analyzeText(long)).toEqual(['x'.repeat(MAX_TERM_LENGTH)]);
  });

  it('never throws and yields lowercase, non-empty, bounded terms', () => {
    expect(analyzeText('ƠᶠĒ')).toEqual(['of']); // folded to "ofe", stemmed to "of"
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (text) => {
        for (const term of analyzeText(text)) {
          expect(term.length).toBeGreaterThan(0);
          expect(term.length).toBeLessThanOrEqual(MAX_TERM_LENGTH);
          expect(term).toBe(term.toLowerCase());
          // A stopword is never a term (see 'drops stopwords'); the stem of a longer word may
          // spell one ("sos" → "so", "ƠᶠĒ" → "ofe" → "of"), and matches only stems of such words.
          if (STOPWORDS.has(term)) {
            expect(normalizeText(text)).toMatch(new RegExp(`${term}\\p{L}+`, 'u'));
          }
        }
      }),
    );
  });

  it('analyzes ASCII text (its fast path) as the Unicode path does', () => {
    // A CJK character after a space sends the text down the Unicode path and adds one term.
    const ascii = fc.string({ unit: fc.constantFrom(..."aZ09-_.'s \t\n,!?xyzQ".split('')) });
    fc.assert(
      fc.property(fc.oneof(ascii, fc.string()), (text) => {
        expect(analyzeText(`${text} 日`)).toEqual([...analyzeText(text), '日']);
      }),
      { numRuns: 500 },
    );
  });

  it('analyzeQuery gives what analyzeText does, asked again or not', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), (texts) => {
        for (const text of [...texts, ...texts])
          expect(analyzeQuery(text)).toEqual(analyzeText(text));
      }),
    );
  });
});
