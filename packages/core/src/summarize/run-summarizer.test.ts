import { describe, expect, it } from 'vitest';
import { MemError } from '../errors/mem-error.ts';
import {
  base,
  type Call,
  counter,
  fallbackText,
  messages,
  scripted,
} from './__fixtures__/scripted-summarizer.ts';
import { createExtractiveSummarizer } from './extractive-summarizer.ts';
import { renderTranscript } from './render-transcript.ts';
import { type RunSummarizerParams, runSummarizer } from './run-summarizer.ts';
import type { SummarizerObject } from './summarizer.ts';
import { SUMMARIZER_SPECIFICATION_VERSION } from './summarizer.ts';

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
        `Priya Raman, AF-1042: summary after pass ${options.previousSummary === undefined ? 1 : Number(options.previousSummary.at(-1)) + 1}`,
    );
    const outcome = await runSummarizer({ ...base, summarizer });
    expect(calls).toHaveLength(3);
    expect(outcome).toMatchObject({
      text: 'Priya Raman, AF-1042: summary after pass 3',
      source: 'summarizer',
      passes: 3,
    });
    expect(outcome.fallbackReason).toBeUndefined();
    expect(outcome.error).toBeUndefined();

    const transcript = renderTranscript(messages);
    const [first, second, third] = calls as [Call, Call, Call];
    expect(first.input).toBe(transcript);
    expect(first.options.previousSummary).toBeUndefined();
    expect(second.options.previousSummary).toBe('Priya Raman, AF-1042: summary after pass 1');
    expect(third.options.previousSummary).toBe('Priya Raman, AF-1042: summary after pass 2');
    expect(second.input).toContain(transcript);
    expect(second.input).toContain(
      '<previous_summary>\nPriya Raman, AF-1042: summary after pass 1\n</previous_summary>',
    );
    for (const { options } of calls) {
      expect(options.instructions!.startsWith('Focus on billing.\n\n')).toBe(true);
      expect(options).toMatchObject({ targetTokens: 150, loops: 3 });
      expect(options.signal.aborted).toBe(false);
    }
    expect(first.options.instructions).toContain(
      'Pass 1 of 3. Write a summary of the transcript of about 150 tokens',
    );
    expect(second.options.instructions).toContain('Identify 1-3 informative Missing Entities');
    expect(second.options.instructions).toContain('identical length, about 150 tokens');
  });

  it('calls a chainOfDensity object once with loops, and reports its usage and passes', async () => {
    const calls: Call[] = [];
    const summarizer: SummarizerObject = {
      specificationVersion: SUMMARIZER_SPECIFICATION_VERSION,
      capabilities: { chainOfDensity: true },
      async summarize(input, options) {
        calls.push({ input, options });
        return {
          text: 'Priya Raman: AF-1042 charged twice, refund failed',
          usage: { inputTokens: 900, outputTokens: 120 },
          passes: 4,
        };
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
      text: 'Priya Raman: AF-1042 charged twice, refund failed',
      source: 'summarizer',
      passes: 4,
      usage: { inputTokens: 900, outputTokens: 120 },
    });
  });

  it('loops an object without chainOfDensity and sums its usage', async () => {
    let n = 0;
    const summarizer: SummarizerObject = {
      specificationVersion: SUMMARIZER_SPECIFICATION_VERSION,
      summarize: async () => ({
        text: `AF-1042 refund, pass ${++n}`,
        usage: { inputTokens: 100, outputTokens: 10 },
      }),
    };
    const outcome = await runSummarizer({ ...base, summarizer });
    expect(outcome).toMatchObject({
      text: 'AF-1042 refund, pass 3',
      passes: 3,
      usage: { inputTokens: 300, outputTokens: 30 },
    });
  });

  it('forwards every per-call usage report once, even when the call then fails', async () => {
    const reports: unknown[] = [];
    const summarizer: SummarizerObject = {
      specificationVersion: SUMMARIZER_SPECIFICATION_VERSION,
      capabilities: { chainOfDensity: true },
      async summarize(_input, options) {
        options.onUsage?.({ inputTokens: 500, outputTokens: 40, model: 'test:a' });
        options.onUsage?.({ inputTokens: 600, outputTokens: 50, model: 'test:a' });
        // The result's own usage repeats what was reported: it must not be counted twice.
        return {
          text: 'Priya Raman: AF-1042 charged twice, refund failed',
          usage: { inputTokens: 1100, outputTokens: 90 },
        };
      },
    };
    const outcome = await runSummarizer({
      ...base,
      summarizer,
      onUsage: (usage) => reports.push(usage),
    });
    expect(reports).toEqual([
      { inputTokens: 500, outputTokens: 40, model: 'test:a' },
      { inputTokens: 600, outputTokens: 50, model: 'test:a' },
    ]);
    expect(outcome.usage).toEqual({ inputTokens: 1100, outputTokens: 90 });

    const failing: SummarizerObject = {
      specificationVersion: SUMMARIZER_SPECIFICATION_VERSION,
      capabilities: { chainOfDensity: true },
      async summarize(_input, options) {
        options.onUsage?.({ inputTokens: 700, outputTokens: 0 });
        throw new Error('provider 500');
      },
    };
    const failed: unknown[] = [];
    const fallback = await runSummarizer({
      ...base,
      summarizer: failing,
      onUsage: (u) => failed.push(u),
    });
    expect(fallback.source).toBe('fallback');
    expect(failed).toEqual([{ inputTokens: 700, outputTokens: 0 }]);
    expect(fallback.usage).toEqual({ inputTokens: 700, outputTokens: 0 });
  });
  it('calls the extractive summarizer once, as a chainOfDensity summarizer', async () => {
    const extractive = createExtractiveSummarizer(counter);
    let calls = 0;
    const summarizer: SummarizerObject = {
      specificationVersion: SUMMARIZER_SPECIFICATION_VERSION,
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
