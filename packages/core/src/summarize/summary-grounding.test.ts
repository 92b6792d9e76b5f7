import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.ts';
import { generateConversation } from '../testing/generate-conversation.ts';
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter.ts';
import { billingConversation } from './__fixtures__/billing-conversation.ts';
import {
  PROVIDER_ERROR_REPLIES,
  UNLISTED_ERROR_REPLIES,
} from './__fixtures__/provider-error-replies.ts';
import { looksLikeErrorText } from './error-text.ts';
import { extractiveSummary } from './extractive-summarizer.ts';
import { checkSummary } from './is-usable-summary.ts';
import { renderTranscript } from './render-transcript.ts';
import { summarySource } from './summary-grounding.ts';

const counter = createTokenCounter();
const example = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8'));
const supportDesk = example('support-desk.conversation.json') as {
  sessions: { messages: Message[] }[];
};
const alderFinch = example('conversation.json') as { messages: Message[] };

/** Every bundled conversation, as the summarizer sees it. */
const bundled: [string, Message[]][] = [
  ...supportDesk.sessions.map((s, i): [string, Message[]] => [`support desk ${i + 1}`, s.messages]),
  ['alder & finch', alderFinch.messages],
  ['billing', billingConversation()],
];

const at = (role: 'user' | 'assistant', content: string, i: number): Message => ({
  id: `x${i}`,
  role,
  content,
  createdAt: i,
});
const chat = (...lines: string[]) =>
  lines.map((c, i) => at(i % 2 === 0 ? 'user' : 'assistant', c, i));

describe('checkSummary: is the summary about its conversation?', () => {
  it('rejects the 11 provider and network error replies of issue 10 against every bundled conversation', () => {
    // A developer's chat about these very errors: only their shape gives them away there.
    const aboutErrors = chat(
      'Checkout calls the payments API and I get "Request failed with status code 500", "fetch failed", an HTTP 502 Bad Gateway and ECONNREFUSED on 127.0.0.1.',
      'The upstream connect error means the proxy lost the server; check the connection and the API key.',
    );
    for (const [name, messages] of [...bundled, ['about errors', aboutErrors] as const]) {
      const source = summarySource(renderTranscript(messages));
      for (const reply of PROVIDER_ERROR_REPLIES) {
        expect(checkSummary(reply, { source }).usable, `${name}: ${reply}`).toBe(false);
      }
    }
  });

  it('rejects error replies no phrase list names, because they are not about the conversation', () => {
    const unnamed = UNLISTED_ERROR_REPLIES.filter((reply) => !looksLikeErrorText(reply));
    // Half or more stay unnamed by the phrase lists: only grounding catches those.
    expect(unnamed.length).toBeGreaterThanOrEqual(5);
    for (const reply of UNLISTED_ERROR_REPLIES) {
      for (const [name, messages] of bundled) {
        const check = checkSummary(reply, { source: renderTranscript(messages) });
        expect(check, `${name}: ${reply}`).toMatchObject({ usable: false });
        if (!check.usable && unnamed.includes(reply)) {
          expect(check.reason).toMatch(/not about the conversation/);
        }
      }
    }
  });

  it('accepts real summaries: terse, paraphrased, dense, in other languages, of tiny chats', () => {
    const cases: [Message[], string][] = [
      [billingConversation(), 'Priya: refund AF-1042.'],
      [
        billingConversation(),
        'A customer from a logistics company was double charged; the refund hit a gateway timeout and finance will follow up.',
      ],
      [
        supportDesk.sessions[0]!.messages,
        'Maren asked about the Hamburg delivery to Elbwerk; Orla found shipment BW-20418 and opened a damage claim.',
      ],
      [
        supportDesk.sessions[0]!.messages,
        'The operations desk handled a damaged delivery and quoted a new lane.',
      ],
      [
        supportDesk.sessions[0]!.messages,
        'A damaged shipment to a machinery firm in northern Germany prompted a complaint; a priority claim was raised and a team member took ownership. Quotes for the Baltic route were requested from two carriers.',
      ],
      [
        supportDesk.sessions[1]!.messages,
        'Carrier selection was finalized: the punctuality record of the incumbent was poor, so a fixed-price annual contract went to the competitor; finance was looped in.',
      ],
      [
        supportDesk.sessions[3]!.messages,
        'Month-end recap prepared for finance; invoice dispute closed via credit; claim settlement still pending.',
      ],
      [alderFinch.messages, 'Estrela wants Huila instead of Santos on AF-1042; stock was short.'],
      [
        chat(
          '東京から大阪までの新幹線の予約をお願いします。',
          '3月5日の午前10時の便を予約しました。',
        ),
        '東京から大阪への新幹線を3月5日午前10時で予約した。',
      ],
      [
        chat('请帮我查一下订单 AF-1042 的物流状态。', '订单 AF-1042 已于昨天发货，预计周五送达。'),
        '用户查询订单 AF-1042 的物流，已发货，周五送达。',
      ],
      [
        chat(
          'Заказ AF-1042 пришёл повреждённым, нужен возврат.',
          'Оформил возврат по заказу AF-1042.',
        ),
        'Клиент сообщил о повреждённом заказе AF-1042; возврат оформлен.',
      ],
      [
        chat('ช่วยยกเลิกการจองโรงแรมที่เชียงใหม่ให้หน่อย', 'ยกเลิกการจองโรงแรมที่เชียงใหม่เรียบร้อยแล้ว'),
        'ผู้ใช้ขอยกเลิกการจองโรงแรมที่เชียงใหม่ และยกเลิกแล้ว',
      ],
      [
        chat('AF-1042 の返金をお願いします。', '返金手続きを開始しました。'),
        'The user asked for a refund of AF-1042; it was started.',
      ],
      [chat('hi', 'hello!'), 'The user greeted the assistant.'],
      [chat('ok'), 'Nothing happened yet.'],
      [
        chat(
          'Question 1: which city did traveller number 1 visit?',
          'Answer 1: traveller 1 visited City1 and stayed 3 nights.',
        ),
        'Six travellers.',
      ],
    ];
    for (const [messages, summary] of cases) {
      const check = checkSummary(summary, { source: renderTranscript(messages) });
      expect(check, summary).toEqual({ usable: true, text: summary });
    }
  });

  it('accepts a summary of summaries: the earlier summary is part of the transcript', () => {
    const earlier =
      'Priya Raman (Acme Logistics): AF-1042 charged twice; Marco Rossi opened FIN-2291.';
    const later = chat('Any news on FIN-2291?', 'Finance refunded the duplicate charge today.');
    const source = renderTranscript(later, { previousSummary: earlier });
    const summary =
      'Marco Rossi’s FIN-2291 for Priya was resolved: the duplicate AF-1042 charge was refunded.';
    expect(checkSummary(summary, { source }).usable).toBe(true);
  });

  it('passes an extractive summary whose only word is a service word the conversation used ("Can\'t wait!")', () => {
    const messages: Message[] = [
      { id: 'd0', role: 'user', name: 'Lena', content: "Can't wait!", createdAt: 1 },
      { id: 'd1', role: 'assistant', name: 'Tom', content: '', createdAt: 2 },
      { id: 'd2', role: 'user', name: 'Lena', content: '', createdAt: 3 },
    ];
    const summary = extractiveSummary(messages, { targetTokens: 64, counter });
    const source = renderTranscript(messages);
    expect(checkSummary(summary, { source, counter }).usable).toBe(true);
    // Written by a model instead, the same word alone still says nothing about the chat.
    expect(checkSummary('Please wait.', { source, counter }).usable).toBe(false);
  });

  it('passes the extractive summarizer’s own output, summaries of summaries included (property)', () => {
    const conversations = fc.oneof(
      fc
        .record({
          interactions: fc.integer({ min: 1, max: 30 }),
          seed: fc.integer(),
          errorRate: fc.double({ min: 0, max: 1, noNaN: true }),
          toolCallRate: fc.double({ min: 0, max: 1, noNaN: true }),
          words: fc.constantFrom<[number, number]>([1, 5], [8, 40], [60, 200]),
        })
        .map((o) => generateConversation(o)),
      fc.constantFrom(...bundled.map(([, m]) => m)),
      fc
        .array(
          fc.record({
            role: fc.constantFrom('user' as const, 'assistant' as const),
            content: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 300 }),
          }),
          { minLength: 1, maxLength: 20 },
        )
        .map((list) => list.map((m, i): Message => ({ id: `r${i}`, createdAt: i, ...m }))),
    );
    fc.assert(
      fc.property(
        conversations,
        fc.option(conversations, { nil: undefined }),
        fc.integer({ min: 64, max: 1500 }),
        (messages, before, targetTokens) => {
          const previous =
            before === undefined
              ? {}
              : { previousSummary: extractiveSummary(before, { targetTokens, counter }) };
          const summary = extractiveSummary(messages, { targetTokens, counter, ...previous });
          const source = renderTranscript(messages, previous);
          const check = checkSummary(summary, {
            source,
            counter,
            originalTokens: Number.POSITIVE_INFINITY,
          });
          expect(check.usable ? 'usable' : check.reason).toBe('usable');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('checkSummary: credentials', () => {
  const source = renderTranscript(billingConversation());

  it('rejects a summary that adds an API key or a masked key, wherever it sits', () => {
    for (const summary of [
      'Priya Raman: AF-1042 refund. Error: Incorrect API key provided: sk-proj-Ab12cd34ef56gh78ij90.',
      'Priya Raman asked about AF-1042 (key sk-ant-api03-XyZ0123456789abcdef).',
      'Priya Raman, AF-1042, sk-…',
      'Priya Raman, AF-1042, token ghp_0123456789abcdefghijKLMNOP.',
    ]) {
      expect(checkSummary(summary, { source }), summary).toEqual({
        usable: false,
        reason: 'holds what looks like an API key or token',
      });
    }
  });

  it('allows one the conversation itself holds', () => {
    const pasted = chat(
      'My key sk-test-0123456789abcdef stopped working for AF-1042.',
      'I rotated it.',
    );
    const summary = 'The key sk-test-0123456789abcdef for AF-1042 was rotated.';
    expect(checkSummary(summary, { source: renderTranscript(pasted) }).usable).toBe(true);
  });
});

describe('checkSummary: length', () => {
  /** A counter that refuses long texts: proves a reply was rejected without being counted. */
  const refusingCounter: TokenCounter = {
    ...counter,
    countText(text) {
      if (text.length > 50_000) throw new Error(`counted ${text.length} characters`);
      return counter.countText(text);
    },
  };

  it('rejects a reply far over the limit by its length in characters, without counting it', () => {
    const check = checkSummary('a'.repeat(150_000), {
      counter: refusingCounter,
      originalTokens: 20_000,
      maxTokens: 2000,
    });
    expect(check).toMatchObject({ usable: false });
    if (!check.usable) expect(check.reason).toMatch(/far longer than the 2000-token limit/);
  });

  it('rejects a reply over maxTokens, and accepts one within it', () => {
    const text = 'Priya Raman asked for a refund of AF-1042. '.repeat(30);
    const tokens = counter.countText(text.trim());
    const options = { counter, originalTokens: 10_000 };
    expect(checkSummary(text, { ...options, maxTokens: tokens })).toMatchObject({ usable: true });
    const over = checkSummary(text, { ...options, maxTokens: tokens - 1 });
    expect(over).toMatchObject({ usable: false });
    if (!over.usable) expect(over.reason).toMatch(/longer than the summary limit/);
  });
});
