import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs } from './retry-after.ts';

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('prefers retry-after-ms, then retry-after seconds, then an HTTP-date', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(
      1500,
    );
    expect(parseRetryAfterMs({ 'Retry-After': '2.5' })).toBe(2500);
    expect(parseRetryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, now)).toBe(7000);
  });

  it('clamps a past date to 0 and ignores absent or garbage values', () => {
    expect(parseRetryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now)).toBe(0);
    expect(parseRetryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after-ms': '-5' })).toBeUndefined();
    expect(parseRetryAfterMs({})).toBeUndefined();
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
  });
});
