import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.ts';
import { generateConversation } from '../testing/generate-conversation.ts';
import { parseTranscript } from './parse-transcript.ts';
import { renderTranscript } from './render-transcript.ts';
import { toTranscriptEntries } from './transcript-entry.ts';

const msg = (m: Omit<Message, 'id' | 'createdAt'>, i = 0): Message => ({
  id: `m${i}`,
  createdAt: i,
  ...m,
});

describe('renderTranscript', () => {
  it('labels roles, tool calls, tool results, errors and earlier summaries', () => {
    const text = renderTranscript([
      msg({ role: 'system', content: 'Summary:\n5 user messages', metadata: { kind: 'summary' } }),
      msg({ role: 'system', content: 'You are a support agent.' }),
      msg({ role: 'user', name: 'priya', content: 'Where is order AF-1042?\nIt was due Monday.' }),
      msg({
        role: 'assistant',
        content: 'Checking.',
        toolCalls: [{ id: 'c1', name: 'search_orders', arguments: '{"id":"AF-1042"}' }],
      }),
      msg({ role: 'tool', toolCallId: 'c1', toolName: 'search_orders', content: 'shipped' }),
      msg({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c2', name: 'track', arguments: '{}' }],
      }),
      msg({
        role: 'tool',
        toolCallId: 'c2',
        toolName: 'track',
        isError: true,
        content: 'Error: 503',
      }),
      msg({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Here is the label.' },
          { type: 'image', image: 'https://x/label.png' },
          { type: 'reasoning', text: 'hidden thoughts' },
        ],
      }),
    ]);
    expect(text).toBe(
      [
        '[Earlier summary]',
        '  Summary:',
        '  5 user messages',
        'System: You are a support agent.',
        'User (priya): Where is order AF-1042?',
        '  It was due Monday.',
        'Assistant: Checking.',
        '→ search_orders({"id":"AF-1042"})',
        '← search_orders: shipped',
        '→ track({})',
        '← track [error]: Error: 503',
        'Assistant: Here is the label.',
        '  [image]',
      ].join('\n'),
    );
  });

  it('shows an earlier summary first, unless a summary message already holds it', () => {
    const user = msg({ role: 'user', content: 'hi' });
    expect(renderTranscript([user], { previousSummary: 'Earlier: AF-1042.' })).toBe(
      '[Earlier summary]\n  Earlier: AF-1042.\nUser: hi',
    );
    const held = msg({
      role: 'system',
      content: 'Summary of the earlier conversation (3 interactions):\nEarlier: AF-1042.',
      metadata: { kind: 'summary' },
    });
    expect(renderTranscript([held, user], { previousSummary: 'Earlier: AF-1042.' })).toBe(
      '[Earlier summary]\n  Earlier: AF-1042.\nUser: hi',
    );
  });

  it('is deterministic and parses back to the same entries', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 120 }).map((s) => s.trim());
    const messages = fc.oneof(
      fc
        .record({ interactions: fc.integer({ min: 0, max: 20 }), seed: fc.integer() })
        .map((o) => generateConversation(o)),
      fc
        .array(
          fc.record({
            role: fc.constantFrom('user' as const, 'assistant' as const, 'system' as const),
            content: fc.array(text, { minLength: 1, maxLength: 3 }).map((l) => l.join('\n').trim()),
          }),
          { maxLength: 10 },
        )
        .map((list) => list.map((m, i) => msg(m, i))),
    );
    fc.assert(
      fc.property(messages, (list) => {
        const rendered = renderTranscript(list);
        expect(renderTranscript(structuredClone(list))).toBe(rendered);
        expect(parseTranscript(rendered)).toEqual(toTranscriptEntries(list));
      }),
      { numRuns: 150 },
    );
  });

  it('parses back text holding line separators other than \\n', () => {
    const list = [msg({ role: 'user', content: '!\u2028!\u2029 ok' })];
    expect(parseTranscript(renderTranscript(list))).toEqual(toTranscriptEntries(list));
  });

  it('parses any text: unlabelled lines become text entries', () => {
    expect(parseTranscript('notes from the call\nPriya agreed\nUser: ok')).toEqual([
      { kind: 'text', text: 'notes from the call\nPriya agreed' },
      { kind: 'message', role: 'user', text: 'ok', toolCalls: [] },
    ]);
  });
});
