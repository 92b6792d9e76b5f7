import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.ts';
import { generateConversation } from '../testing/generate-conversation.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import { billingConversation } from './__fixtures__/billing-conversation.ts';
import { extractiveSummary } from './extractive-summarizer.ts';
import { parseSummary } from './summary-header.ts';

const counter = createTokenCounter();

describe('extractiveSummary of earlier summaries', () => {
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
});
