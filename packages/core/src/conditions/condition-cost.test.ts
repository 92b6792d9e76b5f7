import { describe, expect, it } from 'vitest';
import { MemConditionError, MemConfigError } from '../errors/errors.ts';
import type { CountedMessage } from '../model/message.ts';
import { compileCondition } from './compile-condition.ts';
import { COST_LIMITS } from './condition-budget.ts';
import { interactionVars, messageVars } from './condition-vars.ts';

const PATH = 'short_term_memory_strategy[0].conditions[0]';
const list = (n: number) => `[${Array.from({ length: n }, (_, i) => i).join(', ')}]`;

const megabyte = 'lorem ipsum dolor sit amet, '.repeat(40_000).slice(0, 1_000_000);
function onText(content: string, metadata: Record<string, unknown> = {}) {
  const message: CountedMessage = {
    id: 'm1',
    role: 'user',
    content,
    createdAt: 0,
    tokenCount: 1,
    metadata,
  };
  return {
    message: messageVars(message),
    interaction: interactionVars({
      index: 0,
      messages: [message],
      tokenCount: 1,
      toolNames: ['search'],
      hasError: false,
    }),
  };
}

describe('condition cost: refused when compiled', () => {
  it.each([
    `${list(256)}.map(x, message.content.split('')).size() > 0`,
    `${list(256)}.exists(x, message.content.split('a').size() < 0)`,
    `${list(256)}.map(x, message.content + message.content).size() > 0`,
    `${list(256)}.exists(x, message.content.matches('(a+)+$'))`,
    'interaction.toolNames.exists(t, message.content.lowerAscii().contains(t))',
  ])('%s', (expression) => {
    expect(() => compileCondition(expression, PATH)).toThrow(MemConfigError);
    expect(() => compileCondition(expression, PATH)).toThrow(/too expensive/);
  });

  it('names the path and says what to avoid', () => {
    let error: MemConfigError | undefined;
    try {
      compileCondition(`${list(256)}.exists(x, message.content.split('a').size() < 0)`, PATH);
    } catch (e) {
      error = e as MemConfigError;
    }
    expect(error?.issues[0]?.path).toBe(PATH);
    expect(error?.message).toContain('may read message text inside a macro');
  });
});

describe('condition cost: accepted shapes stay accepted', () => {
  it.each([
    "message.role != 'tool'",
    "message.content.contains('secret')",
    "!message.content.matches('password')",
    `message.content.matches('${'(alpha|bravo|charlie)'.repeat(20)}')`,
    "message.metadata.tags.exists(t, t == 'urgent')",
    "['foo', 'bar', 'baz'].exists(w, message.content.contains(w))",
    "interaction.toolNames.exists(t, t.startsWith('search'))",
    'message.metadata.s.matches(message.metadata.p)',
    `${list(256)}.exists(x, x == message.tokenCount)`,
  ])('%s', (expression) => {
    expect(compileCondition(expression, PATH).expression).toBe(expression);
  });
});

describe('condition cost: every accepted condition on a 1 MB message returns or fails cleanly', () => {
  it.each([
    "message.content.contains('zzz')",
    "size(message.content) > 10 && message.content.startsWith('lorem')",
    "!message.content.matches('password')",
    "message.content.matches('(a+)+$')",
    "message.content.split(' ').size() > 3",
    "message.content.lowerAscii().upperAscii().contains('X')",
    "['foo', 'bar', 'baz'].exists(w, message.content.contains(w))",
    `${Array(10).fill('message.content').join(' + ')} != ''`,
    "message.metadata.big.matches('a+b')",
    'message.metadata.big + message.metadata.big == message.content',
  ])('%s', (expression) => {
    const condition = compileCondition(expression, PATH);
    const vars = onText(megabyte, { big: megabyte });
    let outcome: boolean | MemConditionError;
    try {
      outcome = condition.evaluate(vars, 'm1');
    } catch (error) {
      expect(error).toBeInstanceOf(MemConditionError);
      outcome = error as MemConditionError;
    }
    if (outcome instanceof MemConditionError) {
      expect(outcome.message).toMatch(/over the budget|limit for this pattern/);
    } else {
      expect(typeof outcome).toBe('boolean');
    }
  });

  it('fails before running when the estimate is over the budget, naming the budget', () => {
    const condition = compileCondition("message.content.matches('(a+)+$')", PATH);
    expect(() => condition.evaluate(onText(megabyte), 'm1')).toThrow(
      `over the budget of ${COST_LIMITS.evaluationBudget} per evaluation`,
    );
    expect(condition.evaluate(onText('aaaa!'), 'm1')).toBe(false);
  });

  it('counts a large metadata value as input only for conditions that read metadata', () => {
    const vars = onText('short', { big: megabyte.repeat(10) });
    expect(compileCondition("message.content.matches('(a+)+$')", PATH).evaluate(vars)).toBe(false);
    expect(() =>
      compileCondition("message.metadata.big.matches('(a+)+$')", PATH).evaluate(vars),
    ).toThrow(MemConditionError);
  });
});
