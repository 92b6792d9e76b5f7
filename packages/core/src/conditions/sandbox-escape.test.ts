import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemConditionError, MemConfigError } from '../errors/errors.ts';
import type { CountedMessage } from '../model/message.ts';
import { compileCondition } from './compile-condition.ts';
import { CONDITION_LIMITS } from './condition-environment.ts';
import { type ConditionVars, interactionVars, messageVars } from './condition-vars.ts';

/**
 * Conditions come from user config. Every payload here must be refused when the config loads
 * (MemConfigError) or evaluate harmlessly (a boolean, or MemConditionError) — quickly, with
 * nothing run, nothing added to a prototype and no global set.
 */

const TIMEOUT = { timeout: 2_000 };
const PATH = 'short_term_memory_strategy[0].conditions[0]';
const CANARY = '__memPwned';
const evil = `${'a'.repeat(36)}!`;

const message: CountedMessage = {
  id: 'm1',
  role: 'user',
  content: evil,
  createdAt: 0,
  tokenCount: 10,
  metadata: JSON.parse(
    '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "pinned": true}',
  ),
};
const vars: ConditionVars = {
  message: messageVars(message),
  interaction: interactionVars({
    index: 0,
    messages: [message],
    tokenCount: 10,
    toolNames: ['search'],
    hasError: false,
  }),
};

type Outcome = 'rejected' | 'failed' | boolean;

/** Compiles and evaluates `expression`; only our two error types may come out. */
function attempt(expression: string, on: ConditionVars = vars): Outcome {
  let condition: ReturnType<typeof compileCondition>;
  try {
    condition = compileCondition(expression, PATH);
  } catch (error) {
    expect(error).toBeInstanceOf(MemConfigError);
    expect((error as MemConfigError).issues[0]?.path).toBe(PATH);
    return 'rejected';
  }
  try {
    return condition.evaluate(on, 'm1');
  } catch (error) {
    expect(error).toBeInstanceOf(MemConditionError);
    return 'failed';
  }
}

const PROTOTYPES = [
  Object,
  Function,
  Array,
  String,
  Map,
  Number,
  Boolean,
  BigInt,
  Date,
  RegExp,
  Error,
];
const ownNames = () => PROTOTYPES.map((ctor) => Object.getOwnPropertyNames(ctor.prototype).sort());
let before: string[][];

beforeAll(() => {
  before = ownNames();
});

afterAll(() => {
  // Nothing polluted, nothing set, by any payload in this file.
  expect(ownNames()).toEqual(before);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect((globalThis as Record<string, unknown>)[CANARY]).toBeUndefined();
});

describe('code execution and host access', () => {
  it.each<[string, Outcome]>([
    ["message.constructor.constructor('return process')()", 'rejected'],
    [`message.constructor.constructor('globalThis.${CANARY} = 1')() == 1`, 'rejected'],
    ["message.constructor.constructor('return process') == 1", 'rejected'],
    ["''.constructor == 1", 'rejected'],
    ["message['constructor'] == 1", 'rejected'],
    ["message[ 'con' + 'structor' ] == 1", 'failed'],
    ["dyn(message)['constructor'] == 1", 'failed'],
    ["dyn(message.content)['constructor'] == 1", 'failed'],
    ["dyn(interaction.toolNames)['constructor'] == 1", 'failed'],
    ["dyn(message.metadata)['constructor']['prototype']['polluted'] == 'yes'", true],
    ["dyn(timestamp('2020-01-01T00:00:00Z'))['constructor'] == 1", 'failed'],
    ["dyn(duration('1s'))['constructor'] == 1", 'failed'],
    ["dyn(type(message))['constructor'] == 1", 'failed'],
    ["dyn(cel)['constructor'] == 1", 'rejected'],
    ['this == 1', 'rejected'],
    ['globalThis.process == 1', 'rejected'],
    [`globalThis.${CANARY} = 1`, 'rejected'],
    ['process.exit(1)', 'rejected'],
    ["process.mainModule.require('child_process').execSync('id') == ''", 'rejected'],
    ["require('child_process') == 1", 'rejected'],
    ["import('node:fs') == 1", 'rejected'],
    ["eval('1') == 1", 'rejected'],
    ["Function('return this')() == 1", 'rejected'],
    ["setTimeout('1', 0) == 1", 'rejected'],
    ['message.role.toString() == "user"', 'rejected'],
    ['message.content.valueOf() == ""', 'rejected'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a JS template literal is the payload.
    ['`${process}` == ""', 'rejected'],
    ['(() => true)()', 'rejected'],
    ['function() { return true }', 'rejected'],
    ['message.role == "user"; process.exit(1)', 'rejected'],
    ['new Function("return 1")', 'rejected'],
  ])('%s', TIMEOUT, (expression, outcome) => {
    expect(attempt(expression)).toBe(outcome);
  });
});

describe('prototype access and pollution', () => {
  it.each<[string, Outcome]>([
    ['message.__proto__ == 1', 'rejected'],
    ['message.prototype == 1', 'rejected'],
    ['__proto__ == 1', 'rejected'],
    ['prototype == 1', 'rejected'],
    ["message.metadata.__proto__.polluted = 'yes'", 'rejected'],
    ["message.metadata['__proto__']['polluted'] = 'yes'", 'rejected'],
    // The JSON "__proto__" key is an ordinary key of the metadata map, nothing more.
    ["message.metadata['__proto__'].polluted == 'yes'", true],
    ["message.metadata.__proto__.polluted == 'yes'", true],
    ["{'__proto__': {'polluted': 'yes'}}['__proto__']['polluted'] == 'yes'", 'failed'],
    [
      "{'constructor': {'prototype': {'polluted': 'yes'}}}.constructor.prototype.polluted == 'yes'",
      'failed',
    ],
    ["dyn({'a': 1})['__proto__'] == 1", 'failed'],
    ["[1]['__proto__'] == 1", 'rejected'],
    ["'x'['length'] == 1", 'rejected'],
  ])('%s', TIMEOUT, (expression, outcome) => {
    expect(attempt(expression)).toBe(outcome);
  });

  it('cannot pollute through bytes.json()', TIMEOUT, () => {
    // cel-js 8.0.0's json() misreads its bytes and fails here; if fixed, the key is a plain key.
    const outcome = attempt(
      `b'{"__proto__": {"polluted": "yes"}}'.json()['__proto__']['polluted'] == 'yes'`,
    );
    expect(['failed', true]).toContain(outcome);
  });

  it('cannot pollute through metadata read from JSON', TIMEOUT, () => {
    const hostile: CountedMessage = {
      ...message,
      metadata: JSON.parse(
        '{"__proto__": {"isAdmin": true}, "a": {"__proto__": {"isAdmin": true}}}',
      ),
    };
    const on = { message: messageVars(hostile) };
    expect(attempt("message.metadata['__proto__'].isAdmin == true", on)).toBe(true);
    expect(attempt('message.metadata.a.__proto__.isAdmin', on)).toBe(true);
    expect(attempt('has(message.metadata.isAdmin)', on)).toBe(false);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

describe('regex backtracking', () => {
  it.each<[string, Outcome]>([
    ["'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!'.matches('(a+)+$')", false],
    ["message.content.matches('(a+)+$')", false],
    ["matches(message.content, '(a|aa)+$')", false],
    ["message.content.matches('^(a|a?)+$')", false],
    ["message.content.matches('(.*a){30}!')", true],
    ['message.content.matches(message.content)', true],
    ["dyn(message.content).matches('(a+)+$')", false],
    ["message.content.matches('(a+)+\\\\1')", 'rejected'],
    ["message.content.matches('(?=(a+))\\\\1!')", 'rejected'],
    ["message.content.matches('(?<!b)a')", 'rejected'],
  ])('%s', TIMEOUT, (expression, outcome) => {
    expect(attempt(expression)).toBe(outcome);
  });

  it('stays linear on a long hostile message, and refuses inputs past its budget', TIMEOUT, () => {
    const long: CountedMessage = { ...message, content: `${'a'.repeat(19_000)}!` };
    const on = { message: messageVars(long) };
    expect(attempt("message.content.matches('(a+)+$')", on)).toBe(false);
    expect(attempt("message.content.matches('^(\\\\w+\\\\s?)*$')", on)).toBe(false);
    const huge = { message: messageVars({ ...message, content: 'a'.repeat(2_000_000) }) };
    expect(attempt("message.content.matches('a+$')", huge)).toBe('failed');
  });
});

describe('resource blow-up', () => {
  const list = (n: number) => `[${Array.from({ length: n }, (_, i) => i).join(', ')}]`;

  it.each<[string, Outcome]>([
    [`${list(3)}.map(x, ${list(3)}.map(y, ${list(3)}.map(z, x + y + z))).size() > 0`, 'rejected'],
    [
      `${list(200)}.exists(x, ${list(200)}.exists(y, ${list(200)}.exists(z, x + y + z < 0)))`,
      'rejected',
    ],
    [`${list(200)}.all(x, ${list(200)}.filter(y, y > x).size() >= 0)`, 'rejected'],
    [`[[1]]${'.map(x, x + x)'.repeat(40)}.size() > 0`, 'rejected'],
    [
      `cel.bind(a, message.content + message.content, ${'cel.bind(a, a + a, '.repeat(40)}a.size() > 0${')'.repeat(41)}`,
      'rejected',
    ],
    ["message.content.split('').exists(c, message.content.contains(c + c))", 'rejected'],
    [`${list(300)}.size() > 0`, 'rejected'],
    [`{${Array.from({ length: 300 }, (_, i) => `${i}: ${i}`).join(', ')}}.size() > 0`, 'rejected'],
    [`${Array(500).fill('message.content').join(' + ')} != ''`, 'rejected'],
    [`${Array(200).fill('message.content').join(' + ')} != ''`, 'rejected'],
    [`(${Array(200).fill('message.content').join(' + ')}).contains('zz')`, 'rejected'],
    [`${Array(10).fill('message.content').join(' + ')} != ''`, true],
    [`(${Array(10).fill('message.content').join(' + ')}).contains('zz')`, false],
    [`${list(250)}.map(x, message.content + message.content).join().size() > 0`, 'rejected'],
    ["'x'.matches('a{1000}{1000}')", 'rejected'],
    ["'x'.matches('(a{1000}){1000}')", 'rejected'],
    ['message.tokenCount * message.tokenCount * 9223372036854775807 > 0', 'failed'],
    ["size(message.content.split('')) > 0", true],
    [`message.content == '${'x'.repeat(CONDITION_LIMITS.maxLength)}'`, 'rejected'],
  ])('%s', TIMEOUT, (expression, outcome) => {
    expect(attempt(expression)).toBe(outcome);
  });

  it('rejects 20,000 nested parentheses quickly, with no stack overflow', TIMEOUT, () => {
    const deep = `${'('.repeat(20_000)}true${')'.repeat(20_000)}`;
    expect(attempt(deep)).toBe('rejected');
    expect(attempt(`${'['.repeat(20_000)}${']'.repeat(20_000)} == []`)).toBe('rejected');
    expect(attempt(`${'!'.repeat(20_000)}true`)).toBe('rejected');
  });

  it('rejects deep nesting that fits in the length limit', TIMEOUT, () => {
    expect(attempt(`${'('.repeat(2_000)}true${')'.repeat(2_000)}`)).toBe('rejected');
    expect(attempt(`${'['.repeat(2_000)}${']'.repeat(2_000)} == []`)).toBe('rejected');
    expect(attempt(`${'message.metadata.a'}${'.a'.repeat(1_000)} == 1`)).toBe('rejected');
    expect(attempt(`${'size('.repeat(600)}'x'${')'.repeat(600)} == 1`)).toBe('rejected');
  });

  it('evaluates long unary chains without crashing', TIMEOUT, () => {
    expect(attempt(`${'!'.repeat(1_000)}true`)).toBe(true);
    expect(attempt(`${'-'.repeat(1_000)}1 == 1`)).toBe(true);
  });
});
