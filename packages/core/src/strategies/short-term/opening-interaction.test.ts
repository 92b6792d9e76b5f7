import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../config/parse-profile.ts';
import { InteractionLog, isOpening } from '../../model/interaction-log.ts';
import type { CountedMessage, Message } from '../../model/message.ts';
import { promptProblems } from '../../model/prompt-validity.ts';
import { createTokenCounter, withTokenCount } from '../../tokens/token-counter.ts';
import { createShortTermStrategies } from './from-profile.ts';
import { createMaxTokensStrategy } from './max-tokens-strategy.ts';
import { selectionMessages, selectWindow } from './short-term-strategy.ts';

const counter = createTokenCounter();
let n = 0;
const msg = (m: Omit<Message, 'id' | 'createdAt'>): CountedMessage =>
  withTokenCount({ id: `m${++n}`, createdAt: n, ...m }, counter);
const user = (content: string) => msg({ role: 'user', content });
const assistant = (content: string) => msg({ role: 'assistant', content });
const lookup = (id: string) =>
  msg({
    role: 'assistant',
    content: 'Let me look up your booking.',
    toolCalls: [{ id, name: 'find_booking', arguments: '{"user":"u1"}' }],
  });
const found = (id: string) =>
  msg({ role: 'tool', toolCallId: id, toolName: 'find_booking', content: 'BK-7781' });

const window = (maxTokens: number, messages: readonly CountedMessage[]) => {
  const selection = createMaxTokensStrategy({ maxTokens, counter }).select(
    new InteractionLog(messages),
  );
  return { selection, sent: selectionMessages(selection) };
};
const ids = (messages: readonly Message[]) => messages.map((m) => m.id);
const cost = (messages: readonly CountedMessage[]) =>
  messages.reduce((s, m) => s + m.tokenCount, counter.replyPrimingTokens);

describe('the opening interaction (assistant messages before the first user message)', () => {
  it('groups the messages before the first user message as interaction 0, the opening', () => {
    const hello = assistant('Hi! Your booking code is BK-7781.');
    const question = user('What was my booking code?');
    const log = new InteractionLog([hello, question]);
    expect(log.interactions.map((i) => ids(i.messages))).toEqual([[hello.id], [question.id]]);
    expect(log.interactions.map(isOpening)).toEqual([true, false]);
    expect(log.interactions.map((i) => i.index)).toEqual([0, 1]);
  });

  it("shows an opening assistant greeting before the user's first question", () => {
    const system = msg({ role: 'system', content: 'You are a booking assistant.' });
    const hello = assistant('Hi! Your booking code is BK-7781.');
    const question = user('What was my booking code?');
    const { sent, selection } = window(8000, [system, hello, question]);
    expect(ids(sent)).toEqual([system.id, hello.id, question.id]);
    expect(selection.tokenCount).toBe(cost(sent));
    expect(promptProblems(sent, [system, hello, question])).toEqual([]);
  });

  it('drops the opening greeting as a whole when the budget cannot hold it', () => {
    const hello = assistant('Hi! Your booking code is BK-7781.');
    const more = assistant('I can also change your seat or add luggage.');
    const question = user('What was my booking code?');
    const all = [hello, more, question];
    const budget = cost(all) - 1;
    const { sent, selection } = window(budget, all);
    expect(ids(sent)).toEqual([question.id]);
    expect(selection.tokenCount).toBeLessThanOrEqual(budget);
    expect(window(cost(all), all).sent).toHaveLength(3);
  });

  it('keeps an opening tool call with its result, or drops both: never splits them', () => {
    const call = lookup('c1');
    const all = [call, found('c1'), assistant('Your booking code is BK-7781.'), user('Thanks!')];
    expect(ids(window(cost(all), all).sent)).toEqual(ids(all));
    for (let budget = cost(all.slice(3)); budget < cost(all); budget++) {
      const { sent } = window(budget, all);
      expect(ids(sent)).toEqual([all[3]!.id]);
      expect(promptProblems(sent)).toEqual([]);
    }
  });

  it('never cuts an opening, even when it is the newest interaction and too large', () => {
    const all = [lookup('c1'), found('c1'), assistant('word '.repeat(300))];
    const { sent, selection } = window(cost(all.slice(0, 2)) + 5, all);
    expect(sent).toEqual([]);
    expect(selection.truncated).toBe(false);
    expect(ids(window(cost(all), all).sent)).toEqual(ids(all));
  });

  it('applies conditions to the opening like to any turn, keeping the prompt valid', () => {
    const profile = parseProfile({
      short_term_memory_strategy: [
        {
          memory_strategy_id: 'max_tokens',
          memory_max_tokens: 8000,
          conditions: ["message.role != 'tool'"],
        },
      ],
    });
    const hello = assistant('Hi! Your booking code is BK-7781.');
    const all = [lookup('c1'), found('c1'), hello, user('What was my booking code?')];
    const strategies = createShortTermStrategies(profile, counter);
    const sent = selectionMessages(selectWindow(new InteractionLog(all), strategies, 3));
    expect(sent.map((m) => m.content)).toEqual([
      'Let me look up your booking.',
      'Hi! Your booking code is BK-7781.',
      'What was my booking code?',
    ]);
    expect(sent[0]!.toolCalls).toBeUndefined();
    expect(promptProblems(sent, all)).toEqual([]);
  });

  it('sees the opening as interaction 0 in conditions (interaction.index)', () => {
    const profile = parseProfile({
      short_term_memory_strategy: [
        {
          memory_strategy_id: 'max_tokens',
          memory_max_tokens: 8000,
          conditions: ['interaction.index > 0'],
        },
      ],
    });
    const all = [assistant('Hi there!'), user('Hello'), assistant('How can I help?')];
    const strategies = createShortTermStrategies(profile, counter);
    const sent = selectionMessages(selectWindow(new InteractionLog(all), strategies, 3));
    expect(ids(sent)).toEqual(ids(all.slice(1)));
  });
});

describe('prompt validity with an opening', () => {
  const hello = assistant('Hi! Your booking code is BK-7781.');
  const q1 = user('What was my booking code?');
  const a1 = assistant('BK-7781.');
  const q2 = user('And my seat?');
  const conversation = [hello, q1, a1, q2];

  it("accepts the conversation's opening before the first user message", () => {
    expect(promptProblems([hello, q1, a1, q2], conversation)).toEqual([]);
    expect(promptProblems([hello, q1])).toEqual([]);
  });

  it('refuses a later turn shown without its user message, given the conversation', () => {
    expect(promptProblems([a1, q2], conversation)).toEqual([
      "messages[0] (assistant) comes before the first user message but is not part of the conversation's opening",
    ]);
  });

  it('refuses a prompt that starts with a tool message', () => {
    const orphan = msg({ role: 'tool', toolCallId: 'x', toolName: 't', content: 'r' });
    expect(promptProblems([orphan, q1])).toContain(
      "messages[0] is a tool message; the first after system must be a user message or the conversation's opening assistant message",
    );
  });
});
