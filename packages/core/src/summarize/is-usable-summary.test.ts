import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../tokens/token-counter.ts';
import { looksLikeErrorText } from './error-text.ts';
import { checkSummary, isUsableSummary } from './is-usable-summary.ts';

const counter = createTokenCounter();
const options = { counter, originalTokens: 500 };

describe('checkSummary', () => {
  it('accepts a summary, trimmed', () => {
    expect(checkSummary('  Priya asked for a refund of $40 on AF-1042.\n', options)).toEqual({
      usable: true,
      text: 'Priya asked for a refund of $40 on AF-1042.',
    });
    for (const ok of [
      'Errors encountered: the refund tool failed twice.',
      'Error handling was discussed; Marco will add retries.',
      '{"summary": "Priya asked for a refund."}',
    ]) {
      expect(isUsableSummary(ok, options), ok).toBe(true);
    }
    // Openings are judged strictly: a false positive only costs the extractive fallback.
    expect(isUsableSummary('I cannot stress enough: Priya wants a refund.', options)).toBe(false);
  });

  it('rejects non-strings, empty text and text longer than the original', () => {
    expect(checkSummary(42, options)).toMatchObject({
      usable: false,
      reason: 'is not a string (number)',
    });
    expect(checkSummary(undefined, options).usable).toBe(false);
    expect(checkSummary({ text: 'x' }, options).usable).toBe(false);
    expect(checkSummary('', options)).toMatchObject({ usable: false, reason: 'is empty' });
    expect(checkSummary(' \n\t ', options)).toMatchObject({ usable: false, reason: 'is empty' });
    const long = checkSummary('word '.repeat(600), options);
    expect(long).toMatchObject({ usable: false });
    if (!long.usable) expect(long.reason).toMatch(/longer than what it summarizes/);
  });

  it('rejects error messages, refusals, error pages and JSON errors', () => {
    for (const bad of [
      'Error: 429 rate limit exceeded',
      'Error',
      'TypeError: Cannot read properties of undefined',
      'Exception in thread "main" java.lang.NullPointerException',
      'Traceback (most recent call last):\n  File "x.py"',
      "I'm sorry, but I can't help with that.",
      'I am unable to summarize this conversation.',
      'I cannot summarize this.',
      "I can't do that.",
      'Sorry, something went wrong.',
      'As an AI language model, I cannot...',
      '<!DOCTYPE html><html><body>502 Bad Gateway</body></html>',
      '<html><head><title>Error</title></head></html>',
      '{"error": {"message": "Invalid API key", "type": "invalid_request_error"}}',
      '{"errors": ["quota"]}',
      '502 Bad Gateway',
      'HTTP/1.1 503 Service Unavailable',
      'Internal Server Error',
      'Rate limit reached for gpt-4o',
      'undefined',
      'null',
      '[object Object]',
    ]) {
      expect(looksLikeErrorText(bad), bad).toBe(true);
      expect(isUsableSummary(bad, options), bad).toBe(false);
    }
  });
});
