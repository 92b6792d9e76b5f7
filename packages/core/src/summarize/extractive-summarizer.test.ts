import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemError } from '../errors/mem-error.ts';
import type { Message } from '../model/message.ts';
import { generateConversation } from '../testing/generate-conversation.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import { billingConversation } from './__fixtures__/billing-conversation.ts';
import {
  createExtractiveSummarizer,
  extractiveSummary,
  extractiveSummaryOfText,
  MIN_EXTRACTIVE_SUMMARY_TOKENS,
} from './extractive-summarizer.ts';
import { renderTranscript } from './render-transcript.ts';
import { parseSummary, SUMMARY_HEADER_TITLE } from './summary-header.ts';

const counter = createTokenCounter();

/** Random conversations: generated ones with tool calls and errors, and arbitrary unicode text. */
const conversations = fc.oneof(
  fc
    .record({
      interactions: fc.integer({ min: 0, max: 40 }),
      seed: fc.integer(),
      errorRate: fc.double({ min: 0, max: 1, noNaN: true }),
      toolCallRate: fc.double({ min: 0, max: 1, noNaN: true }),
      words: fc.constantFrom<[number, number]>([1, 5], [8, 40], [60, 200]),
    })
    .map((o) => generateConversation(o)),
  fc
    .array(
      fc.record({
        role: fc.constantFrom('user' as const, 'assistant' as const),
        content: fc.string({ unit: 'grapheme', maxLength: 400 }),
      }),
      { maxLength: 30 },
    )
    .map((list) => list.map((m, i): Message => ({ id: `r${i}`, createdAt: i, ...m }))),
);

/** An earlier summary: none, free text, or an extractive one. */
const previous = fc.option(
  fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 600 }),
    conversations.map((m) => extractiveSummary(m, { targetTokens: 200, counter })),
  ),
  { nil: undefined },
);

describe('extractiveSummary', () => {
  it('starts with the Memory Manager heuristic header', () => {
    const summary = extractiveSummary(billingConversation(), { targetTokens: 250, counter });
    expect(summary.split('\n').slice(0, 6)).toEqual([
      '[Previous conversation summary]',
      '10 user messages',
      'First: "Hi, I\'m Priya Raman from Acme Logistics. Order AF-1042 was..."',
      'Last: "Thanks, that fixed it!"',
      'Tools used: search_orders, refund_payment',
      '1 error encountered',
    ]);
  });

  it('is deterministic', () => {
    const messages = generateConversation({ interactions: 60, seed: 11 });
    const a = extractiveSummary(messages, { targetTokens: 500, counter });
    const b = extractiveSummary(structuredClone(messages), { targetTokens: 500, counter });
    expect(b).toBe(a);
  });

  it('never exceeds targetTokens (floor 64), and its header counts are right', () => {
    fc.assert(
      fc.property(
        conversations,
        fc.integer({ min: 1, max: 1500 }),
        previous,
        (messages, targetTokens, prior) => {
          const summary = extractiveSummary(messages, {
            targetTokens,
            counter,
            ...(prior === undefined ? {} : { previousSummary: prior }),
          });
          const bound = Math.max(targetTokens, MIN_EXTRACTIVE_SUMMARY_TOKENS);
          expect(counter.countText(summary)).toBeLessThanOrEqual(bound);
          expect(summary.startsWith(SUMMARY_HEADER_TITLE)).toBe(true);

          const header = parseSummary(summary).header!;
          const users = messages.filter((m) => m.role === 'user').length;
          const errors = messages.filter((m) => m.role === 'tool' && m.isError).length;
          const tools = [
            ...new Set(
              messages.flatMap((m) => [
                ...(m.toolCalls ?? []).map((c) => c.name),
                ...(m.toolName ? [m.toolName] : []),
              ]),
            ),
          ];
          const before = prior === undefined ? null : parseSummary(prior).header;
          expect(header.userMessages).toBe(users + (before?.userMessages ?? 0));
          // Tool and error lines give way only to a near-floor budget with huge first/last messages.
          if (tools.length > 0 && before === null) {
            expect(header.tools).toEqual(tools);
            expect(header.errors).toBe(errors);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps names, numbers, ids, dates, decisions and failing tools', () => {
    const summary = extractiveSummary(billingConversation(), { targetTokens: 250, counter });
    for (const fact of [
      'Priya Raman',
      'Acme Logistics',
      'AF-1042',
      '$1,249.99',
      '2024-03-14',
      'Marco Rossi',
      '$1,000',
      'FIN-2291',
      'Friday at 17:00 CET',
      '12.5%',
      'Lisbon',
      'search_orders',
      'refund_payment({"order_id":"AF-1042","amount":1249.99}) → error: Error: refund_payment failed: gateway timeout (HTTP 504)',
    ]) {
      expect(summary).toContain(fact);
    }
    expect(summary).not.toContain('happy to help');
  });

  it('puts errors and decisions first when the budget is tight, in chronological order', () => {
    const summary = extractiveSummary(billingConversation(), { targetTokens: 150, counter });
    const points = summary.split('Key points:\n')[1]!.split('\n');
    expect(points).toEqual([
      expect.stringContaining('refund_payment('),
      '- User: We agreed with Marco Rossi that refunds over $1,000 need approval from finance.',
      '- Assistant: Decision: I will open ticket FIN-2291 for finance approval, due Friday at 17:00 CET.',
    ]);
  });

  it('a summary of summaries keeps the earlier summary’s header counts and key lines', () => {
    const first = billingConversation();
    const s1 = extractiveSummary(first, { targetTokens: 250, counter });
    const later = generateConversation({ interactions: 40, seed: 5, errorRate: 0.2 });
    const s2 = extractiveSummary(later, { targetTokens: 400, counter, previousSummary: s1 });
    expect(counter.countText(s2)).toBeLessThanOrEqual(400);
    for (const fact of [
      'AF-1042',
      'FIN-2291',
      'Marco Rossi',
      'refund_payment',
      'gateway timeout',
    ]) {
      expect(s2).toContain(fact);
    }
    const header = parseSummary(s2).header!;
    const laterErrors = later.filter((m) => m.isError).length;
    expect(header.userMessages).toBe(10 + 40);
    expect(header.errors).toBe(1 + laterErrors);
    expect(header.first).toBe(parseSummary(s1).header!.first);
    expect(header.tools.slice(0, 2)).toEqual(['search_orders', 'refund_payment']);
    // New history gets its share too.
    const earlierLines = new Set(parseSummary(s1).lines);
    expect(parseSummary(s2).lines.filter((l) => !earlierLines.has(l)).length).toBeGreaterThan(3);
  });

  it('folds a summary message in once, whether or not previousSummary is also given', () => {
    const s1 = extractiveSummary(billingConversation(), { targetTokens: 250, counter });
    const summaryMessage: Message = {
      id: 's1',
      role: 'system',
      createdAt: 0,
      content: `Summary of the earlier conversation (10 interactions, 2024-03-14 09:01 to 2024-03-14 09:30):\n${s1}`,
      metadata: { kind: 'summary' },
    };
    const later = generateConversation({ interactions: 3, seed: 2 });
    const withMessage = extractiveSummary([summaryMessage, ...later], {
      targetTokens: 400,
      counter,
    });
    const withBoth = extractiveSummary([summaryMessage, ...later], {
      targetTokens: 400,
      counter,
      previousSummary: s1,
    });
    expect(withBoth).toBe(withMessage);
    expect(parseSummary(withBoth).header!.userMessages).toBe(13);
    expect(withBoth).not.toContain('Summary of the earlier conversation');
  });

  it('reads an LLM-written previous summary as facts', () => {
    const previous =
      'Priya Raman reported a double charge on AF-1042. Finance must approve refunds.';
    const summary = extractiveSummary(generateConversation({ interactions: 5, seed: 3 }), {
      targetTokens: 300,
      counter,
      previousSummary: previous,
    });
    expect(summary).toContain('- Priya Raman reported a double charge on AF-1042.');
    expect(summary).toContain('- Finance must approve refunds.');
  });

  it('summarizes transcript text like the messages it was rendered from', () => {
    fc.assert(
      fc.property(conversations, fc.integer({ min: 64, max: 800 }), (messages, targetTokens) => {
        expect(extractiveSummaryOfText(renderTranscript(messages), { targetTokens, counter })).toBe(
          extractiveSummary(messages, { targetTokens, counter }),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('rejects a target that is not a positive number', () => {
    for (const targetTokens of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => extractiveSummary([], { targetTokens, counter })).toThrowError(
        expect.objectContaining({ code: 'MEM_VALIDATION' }),
      );
    }
    expect(MemError.isInstance(new Error('x'))).toBe(false);
  });
});

describe('createExtractiveSummarizer', () => {
  it('is callable and a chainOfDensity summarizer object', async () => {
    const summarizer = createExtractiveSummarizer(counter);
    const transcript = renderTranscript(billingConversation());
    const options = {
      signal: new AbortController().signal,
      instructions: null,
      targetTokens: 250,
      loops: 5,
    };
    const direct = summarizer(transcript, options);
    expect(direct).toBe(extractiveSummary(billingConversation(), { targetTokens: 250, counter }));
    await expect(summarizer.summarize(transcript, options)).resolves.toBe(direct);
    expect(summarizer.capabilities.chainOfDensity).toBe(true);
  });
});
