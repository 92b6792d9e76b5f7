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
      let thrown: unknown;
      try {
        extractiveSummary([], { targetTokens, counter });
      } catch (error) {
        thrown = error;
      }
      expect(MemError.hasCode(thrown, 'MEM_VALIDATION'), String(targetTokens)).toBe(true);
    }
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
