import { describe, expect, it } from 'vitest';
import { MemConditionError, MemConfigError } from '../errors/errors.ts';
import { MemError } from '../errors/mem-error.ts';
import type { Interaction } from '../model/interaction.ts';
import type { CountedMessage } from '../model/message.ts';
import { compileCondition, compileConditions } from './compile-condition.ts';
import { CONDITION_LIMITS } from './condition-environment.ts';
import { type ConditionVars, interactionVars, messageVars } from './condition-vars.ts';

const PATH = 'short_term_memory_strategy[0].conditions[1]';

const userMessage: CountedMessage = {
  id: 'u1',
  role: 'user',
  content: 'please search for the secret',
  createdAt: 1,
  tokenCount: 150,
  metadata: { pinned: true, priority: 2, score: 0.5, tags: ['a', 'b'], nested: { level: 1 } },
};
const toolMessage: CountedMessage = {
  id: 't1',
  role: 'tool',
  content: [{ type: 'text', text: 'no results' }],
  toolCallId: 'c1',
  toolName: 'search',
  isError: true,
  createdAt: 3,
  tokenCount: 40,
};
const interaction: Interaction = {
  index: 2,
  messages: [userMessage, toolMessage],
  tokenCount: 190,
  toolNames: ['search'],
  hasError: true,
};

const onMessage = (message: CountedMessage): ConditionVars => ({
  message: messageVars(message),
  interaction: interactionVars(interaction),
});

/** Compiles `expression` and returns its MemConfigError (fails when it compiles). */
function configError(expression: string): MemConfigError {
  try {
    compileCondition(expression, PATH);
  } catch (error) {
    expect(error).toBeInstanceOf(MemConfigError);
    return error as MemConfigError;
  }
  throw new Error(`expected ${JSON.stringify(expression)} to be rejected`);
}

/** Evaluates `expression` on the user message and returns its MemConditionError. */
function conditionError(
  expression: string,
  vars: ConditionVars = onMessage(userMessage),
): MemConditionError {
  const condition = compileCondition(expression, PATH);
  try {
    condition.evaluate(vars, 'u1');
  } catch (error) {
    expect(error).toBeInstanceOf(MemConditionError);
    return error as MemConditionError;
  }
  throw new Error(`expected ${JSON.stringify(expression)} to fail`);
}

describe('compileCondition', () => {
  it.each([
    ["message.role != 'tool'", true, false],
    ['interaction.tokenCount < 2000', true, true],
    ['!interaction.hasError', false, false],
    ["'search' in interaction.toolNames", true, true],
    ["message.content.contains('secret') == false", false, true],
    ['has(message.metadata.pinned) && message.metadata.pinned == true', true, false],
    ['message.tokenCount > 100', true, false],
    ['interaction.index >= 2', true, true],
    ['interaction.messageCount == 2', true, true],
    ["message.toolName == 'search'", false, true],
    ['message.isError', false, true],
    ["message.name == ''", true, true],
    [
      'has(message.metadata.priority) && message.metadata.priority == 2 && message.metadata.score < 1.0',
      true,
      false,
    ],
    ["has(message.metadata.tags) && message.metadata.tags.exists(t, t == 'b')", true, false],
    ['has(message.metadata.nested) && message.metadata.nested.level >= 1', true, false],
    ["'pinned' in message.metadata", true, false],
    ["message.content.matches('^no\\\\s+res')", false, true],
    ["matches(message.content, '(?i)SECRET$')", true, false],
    ['size(message.content) > 20', true, false],
  ])('%s', (expression, onUser, onTool) => {
    const condition = compileCondition(expression, PATH);
    expect(condition.expression).toBe(expression);
    expect(condition.path).toBe(PATH);
    expect(condition.evaluate(onMessage(userMessage))).toBe(onUser);
    expect(condition.evaluate(onMessage(toolMessage))).toBe(onTool);
  });

  it('reports which variables a condition reads', () => {
    expect(compileCondition("message.role == 'user'", PATH)).toMatchObject({
      usesMessage: true,
      usesInteraction: false,
    });
    expect(compileCondition('interaction.index > 0', PATH)).toMatchObject({
      usesMessage: false,
      usesInteraction: true,
    });
    // An iteration variable named like a variable hides it.
    expect(compileCondition('[1].all(message, message > 0)', PATH)).toMatchObject({
      usesMessage: false,
      usesInteraction: false,
    });
  });

  it('evaluates with only the variables a condition reads', () => {
    const condition = compileCondition("message.role == 'user'", PATH);
    expect(condition.evaluate({ message: messageVars(userMessage) })).toBe(true);
    expect(
      compileCondition('interaction.index == 2', PATH).evaluate({
        interaction: interactionVars(interaction),
      }),
    ).toBe(true);
  });

  describe('rejects at config load, naming the field', () => {
    it.each([
      ["message.role == 'user' &&", 'does not parse'],
      ['message.role = "user"', 'does not parse'],
      ['message.tokenCount', 'must be true or false, but its type is int'],
      ['message.content', 'its type is string'],
      ['interaction.toolNames', 'its type is list<string>'],
      ['user.role == "x"', 'Unknown variable: user'],
      ['message.rol == "x"', 'No such key: rol'],
      ['isAdmin(message.role)', "no matching overload for 'isAdmin(string)'"],
      ["message.tokenCount == 'x'", 'no such overload'],
      ['[1, 2].map(x, [3].map(y, y))', 'may not be nested'],
      ['[1].map(x, x).map(y, y) == [1]', 'only once'],
      ['cel.bind(x, 1, x == 1)', 'cel namespace'],
      ["message.content.split(' ').exists(w, w == 'x')", 'may not iterate over split()'],
      ["message.content.matches('(a)\\\\1')", 'invalid escape sequence'],
      ["message.content.matches('(?=a)')", 'unsupported Perl syntax'],
      ['', 'must not be empty'],
    ])('%j', (expression, message) => {
      const error = configError(expression);
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]?.path).toBe(PATH);
      expect(error.issues[0]?.message).toContain(message);
      expect(error.message).toContain(PATH);
      expect(MemError.hasCode(error, 'MEM_CONFIG')).toBe(true);
    });

    it('rejects a non-string condition', () => {
      expect(() => compileCondition(42 as unknown as string, PATH)).toThrow(/must be a string/);
    });

    it(`rejects conditions over ${CONDITION_LIMITS.maxLength} characters`, () => {
      const long = `message.content == '${'x'.repeat(CONDITION_LIMITS.maxLength)}'`;
      expect(configError(long).issues[0]?.message).toContain(
        `at most ${CONDITION_LIMITS.maxLength}`,
      );
    });

    it('rejects conditions over the node, depth, list, map and argument limits', () => {
      expect(configError(`${Array(700).fill('1').join('+')} > 0`).message).toContain('maxAstNodes');
      const nested = `${'('.repeat(40)}true${')'.repeat(40)}`;
      expect(configError(nested).message).toContain('maxDepth');
      const list = `[${Array.from({ length: 300 }, (_, i) => i).join(',')}].size() > 0`;
      expect(configError(list).message).toContain('maxListElements');
      const map = `{${Array.from({ length: 300 }, (_, i) => `${i}: 1`).join(',')}}.size() > 0`;
      expect(configError(map).message).toContain('maxMapEntries');
      expect(configError('matches(1, 2, 3, 4, 5, 6, 7, 8, 9)').message).toContain(
        'maxCallArguments',
      );
    });
  });
});

describe('compileConditions', () => {
  it('compiles every condition, with paths by index', () => {
    const compiled = compileConditions(
      ["message.role == 'user'", 'interaction.index > 0'],
      'strategy[0].conditions',
    );
    expect(compiled.map((c) => c.path)).toEqual([
      'strategy[0].conditions[0]',
      'strategy[0].conditions[1]',
    ]);
  });

  it('lists every bad condition in one MemConfigError', () => {
    let error: unknown;
    try {
      compileConditions(
        [
          "message.role == 'user'",
          'message.nope',
          '1 +',
          'interaction.index > 0',
          'message.tokenCount',
        ],
        'short_term_memory_strategy[0].conditions',
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MemConfigError);
    const { issues, message } = error as MemConfigError;
    expect(issues.map((i) => i.path)).toEqual([
      'short_term_memory_strategy[0].conditions[1]',
      'short_term_memory_strategy[0].conditions[2]',
      'short_term_memory_strategy[0].conditions[4]',
    ]);
    for (const issue of issues) expect(message).toContain(issue.path);
  });
});

describe('evaluate failures become MemConditionError', () => {
  it('on a missing map key, with the path, expression, message id and cause', () => {
    const error = conditionError('message.metadata.missing == 1');
    expect(error).toMatchObject({
      path: PATH,
      expression: 'message.metadata.missing == 1',
      messageId: 'u1',
    });
    expect(error.message).toContain('No such key: missing');
    expect(error.message).toContain('Guard optional fields with has(');
    expect(error.message).toContain(PATH);
    expect(error.cause).toBeInstanceOf(Error);
    expect(MemError.hasCode(error, 'MEM_CONDITION')).toBe(true);
  });

  it('on a non-boolean result of a dynamic value', () => {
    expect(conditionError('message.metadata.priority').message).toContain(
      'returned the int 2 instead of true or false',
    );
    expect(conditionError('message.metadata.tags').message).toContain('returned a list');
  });

  it('on a variable the condition reads but was not given', () => {
    const error = conditionError('interaction.index > 0', { message: messageVars(userMessage) });
    expect(error.message).toContain('no interaction was given');
    expect(conditionError("message.role == 'user'", {}).message).toContain('no message was given');
  });

  it('on integer overflow and bad conversions', () => {
    expect(conditionError('message.tokenCount * 9223372036854775807 > 0').message).toContain(
      'overflow',
    );
    expect(conditionError('int(message.content) > 0').message).toContain('failed');
    // The has() advice is for missing keys only.
    expect(conditionError('message.tokenCount * 9223372036854775807 > 0').message).not.toContain(
      'has(',
    );
  });

  it('on metadata too large to convert', () => {
    const big: CountedMessage = {
      ...userMessage,
      metadata: { list: Array.from({ length: 5000 }, () => 1) },
    };
    const error = conditionError('has(message.metadata.list)', onMessage(big));
    expect(error.message).toContain('more than 1000 values');
  });

  it('on a matches() input over the limit, or a bad pattern known only at run time', () => {
    const huge: CountedMessage = { ...userMessage, content: 'a'.repeat(1_000_001) };
    expect(conditionError("message.content.matches('a')", onMessage(huge)).message).toContain(
      'over the budget of',
    );
    expect(conditionError("message.content.matches(message.role + '(')").message).toContain(
      'missing closing )',
    );
  });

  it('never lets a plain error escape', () => {
    const condition = compileCondition('message.metadata.nested.level.deeper == 1', PATH);
    expect(() => condition.evaluate(onMessage(userMessage), 'u1')).toThrow(MemConditionError);
  });
});
