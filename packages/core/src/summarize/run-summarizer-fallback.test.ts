import { describe, expect, it } from 'vitest';
import { MemError } from '../errors/mem-error.ts';
import {
  base,
  fallbackText,
  hangForever,
  hangUntilAborted,
  scripted,
} from './__fixtures__/scripted-summarizer.ts';
import { runSummarizer } from './run-summarizer.ts';

describe('runSummarizer fallback', () => {
  it('falls back when the summarizer throws or rejects', async () => {
    for (const summarizer of [
      () => {
        throw new Error('boom');
      },
      async () => {
        throw new Error('boom');
      },
    ]) {
      const outcome = await runSummarizer({ ...base, summarizer });
      expect(outcome).toMatchObject({
        text: fallbackText,
        source: 'fallback',
        fallbackReason: 'error',
        passes: 0,
      });
      expect(MemError.hasCode(outcome.error, 'MEM_SUMMARIZER')).toBe(true);
      expect((outcome.error as Error).message).toMatch(
        /^\[mem\/core\] summarizer failed on pass 1 of 3: boom/,
      );
      expect((outcome.error as Error).cause).toEqual(new Error('boom'));
    }
  });

  it('aborts a summarizer that honours the signal at the deadline', async () => {
    const { calls, summarizer } = scripted(hangUntilAborted);
    const outcome = await runSummarizer({ ...base, timeoutMs: 50, summarizer });
    expect(outcome).toMatchObject({
      text: fallbackText,
      source: 'fallback',
      fallbackReason: 'timeout',
    });
    const signal = calls[0]!.options.signal;
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe('TimeoutError');
    expect((outcome.error as Error).message).toMatch(/timed out after 50 ms/);
  });

  it('resolves at the deadline even when the summarizer ignores the signal', async () => {
    const { summarizer } = scripted(hangForever);
    const started = performance.now();
    const outcome = await runSummarizer({ ...base, timeoutMs: 80, summarizer });
    const elapsed = performance.now() - started;
    expect(outcome).toMatchObject({
      text: fallbackText,
      source: 'fallback',
      fallbackReason: 'timeout',
    });
    expect(elapsed).toBeGreaterThanOrEqual(70);
    expect(elapsed).toBeLessThan(1000);
    expect(outcome.durationMs).toBeGreaterThanOrEqual(70);
  });

  it('absorbs a rejection that arrives after the deadline', async () => {
    const { summarizer } = scripted(
      () => new Promise((_, reject) => setTimeout(() => reject(new Error('late')), 80)),
    );
    const outcome = await runSummarizer({ ...base, timeoutMs: 30, summarizer });
    expect(outcome.fallbackReason).toBe('timeout');
    await new Promise((r) => setTimeout(r, 100));
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const { calls, summarizer } = scripted(hangUntilAborted);
    setTimeout(() => controller.abort(), 30);
    const outcome = await runSummarizer({
      ...base,
      timeoutMs: null,
      signal: controller.signal,
      summarizer,
    });
    expect(outcome).toMatchObject({
      text: fallbackText,
      source: 'fallback',
      fallbackReason: 'aborted',
    });
    expect(calls[0]!.options.signal.aborted).toBe(true);

    const already = scripted(() => 'never called');
    const again = await runSummarizer({
      ...base,
      signal: controller.signal,
      summarizer: already.summarizer,
    });
    expect(again.fallbackReason).toBe('aborted');
    expect(already.calls).toHaveLength(0);
  });

  it('falls back on empty, garbage or error-text output, never returning it', async () => {
    for (const output of [
      '',
      '   ',
      42,
      null,
      { nope: true },
      'Error: 429 Too Many Requests',
      "I'm sorry, I can't help with that.",
      '<!DOCTYPE html><title>502 Bad Gateway</title>',
      '{"error":{"message":"invalid api key"}}',
      'Traceback (most recent call last):',
      'far too long '.repeat(400),
    ]) {
      const { summarizer } = scripted(() => output);
      const outcome = await runSummarizer({ ...base, summarizer });
      expect(outcome, String(output)).toMatchObject({
        text: fallbackText,
        source: 'fallback',
        fallbackReason: 'unusable',
      });
      expect((outcome.error as Error).message).toMatch(/unusable output on pass 1 of 3/);
    }
  });

  it('keeps the last usable pass when a later pass fails', async () => {
    for (const [later, pattern] of [
      [
        () => Promise.reject(new Error('boom')),
        /failed on pass 2 of 3: boom; the last usable pass was kept/,
      ],
      [() => 'Error: upstream timeout', /unusable output on pass 2 of 3/],
    ] as const) {
      const { calls, summarizer } = scripted(() => 'Priya Raman: refund of AF-1042', later);
      const outcome = await runSummarizer({ ...base, summarizer });
      expect(calls).toHaveLength(2);
      expect(outcome).toMatchObject({
        text: 'Priya Raman: refund of AF-1042',
        source: 'summarizer',
        passes: 1,
      });
      expect(outcome.fallbackReason).toBeUndefined();
      expect((outcome.error as Error).message).toMatch(pattern);
    }
    const { summarizer } = scripted(
      () => 'Priya Raman: AF-1042 (one)',
      () => 'Priya Raman: AF-1042 (two)',
      hangForever,
    );
    const outcome = await runSummarizer({ ...base, timeoutMs: 100, summarizer });
    expect(outcome).toMatchObject({
      text: 'Priya Raman: AF-1042 (two)',
      source: 'summarizer',
      passes: 2,
    });
    expect((outcome.error as Error).message).toMatch(/timed out after 100 ms \(pass 3 of 3\)/);
  });
});
