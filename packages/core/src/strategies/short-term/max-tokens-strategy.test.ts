import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../config/parse-profile.ts';
import { InteractionLog } from '../../model/interaction-log.ts';
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
const call = (id: string, name = 'search') =>
  msg({ role: 'assistant', content: '', toolCalls: [{ id, name, arguments: '{"q":"x"}' }] });
const result = (id: string, content = 'ok', isError = false) =>
  msg({
    role: 'tool',
    toolCallId: id,
    toolName: 'search',
    content,
    ...(isError ? { isError } : {}),
  });

function turns(count: number): CountedMessage[] {
  const out: CountedMessage[] = [];
  for (let i = 0; i < count; i++)
    out.push(
      user(`question ${i}`),
      call(`c${i}`),
      result(`c${i}`, `result ${i}`),
      assistant(`answer ${i}`),
    );
  return out;
}
const ids = (messages: readonly Message[]) => messages.map((m) => m.id);
const cost = (messages: readonly CountedMessage[]) =>
  messages.reduce((s, m) => s + m.tokenCount, 0);

describe('max_tokens strategy', () => {
  it('keeps the newest whole interactions that fit, oldest first', () => {
    const messages = turns(10);
    const perTurn = cost(messages.slice(0, 4));
    const log = new InteractionLog(messages);
    const budget = counter.replyPrimingTokens + perTurn * 3 + 1;
    const selection = createMaxTokensStrategy({ maxTokens: budget, counter }).select(log);
    expect(selection.interactions.map((i) => i.index)).toEqual([7, 8, 9]);
    expect(ids(selectionMessages(selection))).toEqual(ids(messages.slice(28)));
    expect(selection.tokenCount).toBe(counter.replyPrimingTokens + perTurn * 3);
    expect(selection.truncated).toBe(false);
  });

  it('always keeps system messages, first, and counts them against the budget', () => {
    const system = msg({ role: 'system', content: 'You are terse.' });
    const messages = turns(5);
    const log = new InteractionLog([messages[0]!, system, ...messages.slice(1)]);
    const perTurn = cost(messages.slice(0, 4));
    const budget = counter.replyPrimingTokens + system.tokenCount + perTurn * 2;
    const sent = selectionMessages(
      createMaxTokensStrategy({ maxTokens: budget, counter }).select(log),
    );
    expect(sent[0]).toBe(system);
    expect(ids(sent.slice(1))).toEqual(ids(messages.slice(12)));
  });

  it('-1 includes no interaction (system messages stay)', () => {
    const system = msg({ role: 'system', content: 'sys' });
    const log = new InteractionLog([system, ...turns(3)]);
    const selection = createMaxTokensStrategy({ maxTokens: -1, counter }).select(log);
    expect(selection.interactions).toEqual([]);
    expect(selectionMessages(selection)).toEqual([system]);
  });

  it('an oversized newest interaction keeps its user message and the newest whole steps that fit', () => {
    const u = user('please run three searches');
    const big = 'lorem ipsum '.repeat(200);
    const steps = [call('a'), result('a', big), call('b'), result('b', 'small'), assistant('done')];
    const log = new InteractionLog([...turns(2), u, ...steps]);
    const budget = counter.replyPrimingTokens + u.tokenCount + cost(steps.slice(2)) + 5;
    const selection = createMaxTokensStrategy({ maxTokens: budget, counter }).select(log);
    expect(selection.truncated).toBe(true);
    const sent = selectionMessages(selection);
    expect(ids(sent)).toEqual(ids([u, ...steps.slice(2)]));
    expect(promptProblems(sent)).toEqual([]);
    expect(selection.tokenCount).toBeLessThanOrEqual(budget);
  });

  it('keeps nothing when even the newest user message does not fit', () => {
    const log = new InteractionLog([...turns(1), user('word '.repeat(500))]);
    const selection = createMaxTokensStrategy({ maxTokens: 100, counter }).select(log);
    expect(selection.interactions).toEqual([]);
  });

  it('repairs stored histories: orphan results dropped, unanswered calls stripped', () => {
    const pending = msg({
      role: 'assistant',
      content: 'checking',
      toolCalls: [{ id: 'p1', name: 'search', arguments: '{}' }],
    });
    const orphan = result('ghost');
    const log = new InteractionLog([user('hi'), orphan, pending, assistant('still here')]);
    const sent = selectionMessages(
      createMaxTokensStrategy({ maxTokens: 10_000, counter }).select(log),
    );
    expect(promptProblems(sent)).toEqual([]);
    expect(sent.find((m) => m.id === orphan.id)).toBeUndefined();
    const stripped = sent.find((m) => m.id === pending.id)!;
    expect(stripped.toolCalls).toBeUndefined();
    expect(stripped.tokenCount).toBe(counter.countMessage(stripped));
    expect(pending.toolCalls).toHaveLength(1); // the stored message is untouched
  });

  it('seed example: conditions ["message.role != \'tool\'"] hide tool traffic and keep the prompt valid', () => {
    const profile = parseProfile({
      short_term_memory_strategy: [
        {
          memory_strategy_id: 'max_tokens',
          memory_max_tokens: 8000,
          conditions: ["message.role != 'tool'"],
        },
      ],
    });
    const messages = turns(4);
    const log = new InteractionLog(messages);
    const selection = selectWindow(
      log,
      createShortTermStrategies(profile, counter),
      counter.replyPrimingTokens,
    );
    const sent = selectionMessages(selection);
    expect(sent.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(promptProblems(sent)).toEqual([]);
    expect(selection.tokenCount).toBe(cost(sent) + counter.replyPrimingTokens);
  });

  it('interaction conditions drop whole turns without stopping the walk', () => {
    const profile = parseProfile({
      short_term_memory_strategy: [
        {
          memory_strategy_id: 'max_tokens',
          memory_max_tokens: 8000,
          conditions: ['!interaction.hasError'],
        },
      ],
    });
    const log = new InteractionLog([
      user('one'),
      call('x1'),
      result('x1', 'fine'),
      assistant('a1'),
      user('two'),
      call('x2'),
      result('x2', 'Error: boom', true),
      assistant('a2'),
      user('three'),
      assistant('a3'),
    ]);
    const sent = selectionMessages(
      selectWindow(log, createShortTermStrategies(profile, counter), 3),
    );
    expect(sent.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['one', 'three']);
  });

  it('chains strategies: each applies to what the previous kept', () => {
    const profile = parseProfile({
      short_term_memory_strategy: [
        {
          memory_strategy_id: 'max_tokens',
          memory_max_tokens: 100000,
          conditions: ["message.role != 'tool'"],
        },
        { memory_strategy_id: 'max_tokens', memory_max_tokens: 60 },
      ],
    });
    const log = new InteractionLog(turns(6));
    const selection = selectWindow(log, createShortTermStrategies(profile, counter), 3);
    expect(selection.tokenCount).toBeLessThanOrEqual(60);
    expect(selectionMessages(selection).some((m) => m.role === 'tool')).toBe(false);
  });
});
