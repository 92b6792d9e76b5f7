import { describe, expect, it } from 'vitest';
import { MemError } from '../errors/mem-error.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import { billingConversation } from './__fixtures__/billing-conversation.ts';
import { createExtractiveSummarizer, extractiveSummary } from './extractive-summarizer.ts';
import { renderTranscript } from './render-transcript.ts';
import { type RunSummarizerParams, runSummarizer } from './run-summarizer.ts';
import type { SummarizeOptions, SummarizerObject } from './summarizer.ts';

const counter = createTokenCounter();
const messages = billingConversation();
const originalTokens = messages.reduce((s, m) => s + counter.countMessage(m), 0);
const base = {
  messages,
  instructions: 'Focus on billing.',
  loops: 3,
  targetTokens: 150,
  timeoutMs: 1000,
  counter,
  originalTokens,
} satisfies RunSummarizerParams;
const fallbackText = extractiveSummary(messages, { targetTokens: 150, counter });

type Call = { input: string; options: SummarizeOptions };
/** A summarizer answering from a script, one entry per call; records every call. */
function scripted(...answers: ((call: Call) => unknown)[]) {
  const calls: Call[] = [];
  const summarizer = (input: string, options: SummarizeOptions) => {
    const call = { input, options };
    calls.push(call);
    return answers[Math.min(calls.length, answers.length) - 1]!(call) as Promise<string>;
  };
  return { calls, summarizer };
}
const hangUntilAborted = ({ options }: Call) =>
  new Promise((_, reject) =>
    options.signal.addEventListener('abort', () => reject(options.signal.reason)),
  );
const hangForever = () => new Promise(() => {});

describe('runSummarizer', () => {
  it('falls back to the extractive summary when no summarizer is configured', async () => {
    const outcome = await runSummarizer(base);
    expect(outcome).toMatchObject({
      text: fallbackText,
      source: 'fallback',
      fallbackReason: 'none-configured',
      passes: 0,
    });
    expect(outcome.error).toBeUndefined();
  });

  it('runs Chain of Density around a plain function: loops passes, instructions, previous summary', async () => {
    const { calls, summarizer } = scripted(
      ({ options }) =>
        `summary after pass ${options.previousSummary === undefined ? 1 : Number(options.previousSummary.at(-1)) + 1}`,
    );
    const outcome = await runSummarizer({ ...base, summarizer });
    expect(calls).toHaveLength(3);
    expect(outcome).toMatchObject({
      text: 'summary after pass 3',
      source: 'summarizer',
      passes: 3,
    });
    expect(outcome.fallbackReason).toBeUndefined();
    expect(outcome.error).toBeUndefined();

    const transcript = renderTranscript(messages);
    const [first, second, third] = calls as [Call, Call, Call];
    expect(first.input).toBe(transcript);
    expect(first.options.previousSummary).toBeUndefined();
    expect(second.options.previousSummary).toBe('summary after pass 1');
    expect(third.options.previousSummary).toBe('summary after pass 2');
    expect(second.input).toContain(transcript);
    expect(second.input).toContain('<previous_summary>\nsummary after pass 1\n</previous_summary>');
    for (const { options } of calls) {
      expect(options.instructions!.startsWith('Focus on billing.\n\n')).toBe(true);
      expect(options).toMatchObject({ targetTokens: 150, loops: 3 });
      expect(options.signal.aborted).toBe(false);
    }
    expect(first.options.instructions).toContain(
      'Summarize the conversation transcript in about 150 tokens',
    );
    expect(second.options.instructions).toContain('Identify 1-3 informative entities');
    expect(second.options.instructions).toContain('do not grow');
  });

  it('calls a chainOfDensity object once with loops, and reports its usage and passes', async () => {
    const calls: Call[] = [];
    const summarizer: SummarizerObject = {
      capabilities: { chainOfDensity: true },
      async summarize(input, options) {
        calls.push({ input, options });
        return { text: 'dense summary', usage: { inputTokens: 900, outputTokens: 120 }, passes: 4 };
      },
    };
    const outcome = await runSummarizer({ ...base, loops: 5, summarizer });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.options).toMatchObject({
      loops: 5,
      instructions: 'Focus on billing.',
      targetTokens: 150,
    });
    expect(calls[0]!.input).toBe(renderTranscript(messages));
    expect(outcome).toMatchObject({
      text: 'dense summary',
      source: 'summarizer',
      passes: 4,
      usage: { inputTokens: 900, outputTokens: 120 },
    });
  });

  it('loops an object without chainOfDensity and sums its usage', async () => {
    let n = 0;
    const summarizer: SummarizerObject = {
      summarize: async () => ({
        text: `pass ${++n}`,
        usage: { inputTokens: 100, outputTokens: 10 },
      }),
    };
    const outcome = await runSummarizer({ ...base, summarizer });
    expect(outcome).toMatchObject({
      text: 'pass 3',
      passes: 3,
      usage: { inputTokens: 300, outputTokens: 30 },
    });
  });

  it('calls the extractive summarizer once, as a chainOfDensity summarizer', async () => {
    const extractive = createExtractiveSummarizer(counter);
    let calls = 0;
    const summarizer: SummarizerObject = {
      capabilities: extractive.capabilities,
      summarize: (input, options) => {
        calls++;
        return extractive.summarize(input, options);
      },
    };
    const outcome = await runSummarizer({ ...base, loops: 5, summarizer });
    expect(calls).toBe(1);
    expect(outcome).toMatchObject({ source: 'summarizer', text: fallbackText, passes: 5 });
  });

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
      const { calls, summarizer } = scripted(() => 'good first pass', later);
      const outcome = await runSummarizer({ ...base, summarizer });
      expect(calls).toHaveLength(2);
      expect(outcome).toMatchObject({ text: 'good first pass', source: 'summarizer', passes: 1 });
      expect(outcome.fallbackReason).toBeUndefined();
      expect((outcome.error as Error).message).toMatch(pattern);
    }
    const { summarizer } = scripted(
      () => 'one',
      () => 'two',
      hangForever,
    );
    const outcome = await runSummarizer({ ...base, timeoutMs: 100, summarizer });
    expect(outcome).toMatchObject({ text: 'two', source: 'summarizer', passes: 2 });
    expect((outcome.error as Error).message).toMatch(/timed out after 100 ms \(pass 3 of 3\)/);
  });

  it('accepts a synchronous summarizer', async () => {
    const outcome = await runSummarizer({
      ...base,
      loops: 1,
      summarizer: () => '  Priya: refund AF-1042.  ',
    });
    expect(outcome).toMatchObject({
      text: 'Priya: refund AF-1042.',
      source: 'summarizer',
      passes: 1,
    });
  });

  it('rejects invalid params with MemValidationError', async () => {
    const bad: Partial<RunSummarizerParams>[] = [
      { loops: 0 },
      { loops: 1.5 },
      { targetTokens: 0 },
      { targetTokens: Number.NaN },
      { timeoutMs: 0 },
      { timeoutMs: -1 },
      { originalTokens: -1 },
      { summarizer: 'nope' as never },
      { messages: 'nope' as never },
    ];
    for (const patch of bad) {
      await expect(
        runSummarizer({ ...base, ...patch } as RunSummarizerParams),
        JSON.stringify(patch),
      ).rejects.toSatisfy((e: unknown) => MemError.hasCode(e, 'MEM_VALIDATION'));
    }
  });
});
