import { describe, expect, it } from 'vitest';
import {
  compileBoundedRegex,
  MAX_MATCH_INPUT,
  MAX_PATTERN_LENGTH,
  RegexInputTooLongError,
  RegexSyntaxError,
} from './bounded-regex.ts';

const PATTERNS = [
  'a',
  '^a',
  'a$',
  '^$',
  'a|b',
  '(ab)+c',
  'x.*y',
  '^foo.*bar.*baz$',
  '[a-c]+d',
  '[^abc]',
  '\\d{2,3}',
  '\\bfoo\\b',
  '\\Bfoo',
  'a{3}',
  'a{2,}',
  '(a|b)*c',
  '(?:ab|cd)?e',
  '[\\w.-]+@[\\w-]+\\.com',
  '(a+)+$',
  'a\\.b',
  '\\x41',
  'colou?r',
  '^\\s*$',
  '(a*)*b',
  '[a-]',
  'é+',
  '😀.',
  '^.$',
  '(?<word>ab)c',
  'a+?b',
];
const INPUTS = [
  '',
  'a',
  'ab',
  'abc',
  'ababc',
  'xay',
  'foobarbaz',
  'foo bar baz',
  'cccd',
  'z',
  '1234',
  'a foo b',
  'afoo',
  'aaaa',
  'bbc',
  'abe',
  'me@x-y.com',
  'aaaa!',
  'a.b',
  'A',
  'colour',
  '   ',
  'aab',
  '-',
  'éé',
  '😀x',
  '😀',
];

describe('compileBoundedRegex', () => {
  it('answers like RegExp (u flag) on the syntax both share', () => {
    for (const pattern of PATTERNS) {
      const ours = compileBoundedRegex(pattern);
      const native = new RegExp(pattern, 'u');
      for (const input of INPUTS) {
        expect({ pattern, input, matches: ours.test(input) }).toEqual({
          pattern,
          input,
          matches: native.test(input),
        });
      }
    }
  });

  it('supports RE2 flags and escapes', () => {
    expect(compileBoundedRegex('(?i)HeLLo').test('say hello')).toBe(true);
    expect(compileBoundedRegex('(?m)^b$').test('a\nb\nc')).toBe(true);
    expect(compileBoundedRegex('^b$').test('a\nb\nc')).toBe(false);
    expect(compileBoundedRegex('(?s)a.b').test('a\nb')).toBe(true);
    expect(compileBoundedRegex('\\x{1F600}').test('😀')).toBe(true);
    expect(compileBoundedRegex('\\p{Greek}+').test('λόγος')).toBe(true);
  });

  it.each([
    ['(a', 'missing closing )'],
    ['*a', 'missing argument'],
    ['(?=a)', 'invalid or unsupported Perl syntax'],
    ['(?<!a)b', 'invalid named capture'],
    ['(a)\\1', 'invalid escape sequence'],
    ['[z-a]', 'invalid character class range'],
    ['a{1001}', 'invalid repeat count'],
    ['x'.repeat(MAX_PATTERN_LENGTH + 1), 'characters, over the'],
  ])('rejects %j', (pattern, message) => {
    expect(() => compileBoundedRegex(pattern)).toThrow(RegexSyntaxError);
    expect(() => compileBoundedRegex(pattern)).toThrow(message);
  });

  it('runs patterns that backtrack exponentially in RegExp in linear time', {
    timeout: 5_000,
  }, () => {
    const input = `${'a'.repeat(MAX_MATCH_INPUT - 1)}!`;
    expect(compileBoundedRegex('(a+)+$').test(input)).toBe(false);
    expect(compileBoundedRegex('(a|aa)+$').test(input)).toBe(false);
    expect(compileBoundedRegex('^(\\w+\\s?)*$').test(input)).toBe(false);
    expect(compileBoundedRegex('a*b').test(input)).toBe(false);
  });

  it('refuses inputs over the budget of the pattern', () => {
    const small = compileBoundedRegex('abc');
    expect(small.maxInputLength).toBe(MAX_MATCH_INPUT);
    expect(() => small.test('a'.repeat(MAX_MATCH_INPUT + 1))).toThrow(RegexInputTooLongError);
    const big = compileBoundedRegex(`(a?){200}${'b'.repeat(300)}`);
    expect(big.maxInputLength).toBeLessThan(MAX_MATCH_INPUT);
    expect(() => big.test('a'.repeat(big.maxInputLength + 1))).toThrow(/guard the call with size/);
  });
});
