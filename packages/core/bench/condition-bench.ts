import { printTable } from '@mem/bench-kit';
import { compileCondition } from '../src/conditions/compile-condition.ts';
import { COST_LIMITS, costOn } from '../src/conditions/condition-budget.ts';
import { messageVars } from '../src/conditions/condition-vars.ts';
import { MemError } from '../src/errors/mem-error.ts';
import type { CountedMessage } from '../src/model/message.ts';

/**
 * Worst-case condition evaluation (after a JIT warm-up on small inputs): each condition runs on a 1 MB message (prose and `aaaa…`)
 * and on the largest message its work budget admits (where it does run, the slowest case).
 * Every run must take < 50 ms or fail with MemConditionError. Prints a table and a JSON line.
 * `pnpm exec tsx bench/condition-bench.ts`
 */
const MB = 1_000_000;
/** A flat string, as a message read from JSON or a store is (`repeat` builds a rope). */
const flat = (text: string): string => JSON.parse(JSON.stringify(text)) as string;
const prose = flat(
  'lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(MB / 50).slice(0, MB),
);
const as = flat('a'.repeat(MB));
const list = (n: number) => `[${Array.from({ length: n }, (_, i) => i).join(', ')}]`;

const accepted = [
  "message.content.contains('zzz')",
  "size(message.content) > 10 && message.content.endsWith('x')",
  "!message.content.matches('password')",
  "message.content.matches('(a+)+$')",
  "message.content.matches('(?i)secret')",
  `message.content.matches('(?i)${'a?'.repeat(100)}${'a'.repeat(50)}')`,
  "message.content.split(' ').size() > 3",
  "message.content.split('').size() > 3",
  "message.content.lowerAscii().upperAscii().contains('X')",
  "message.content.lowerAscii().contains('password')",
  "message.content.substring(10).trim().upperAscii().contains('X')",
  "['foo', 'bar', 'baz'].exists(w, message.content.contains(w))",
  `${list(256)}.exists(x, message.content.contains(string(x)))`,
  `(${Array(10).fill('message.content').join(' + ')}).contains('zz')`,
];
const refused = [
  `${list(256)}.map(x, message.content.split('')).size() > 0`,
  `${list(256)}.exists(x, message.content.split('a').size() < 0)`,
  `${list(256)}.map(x, message.content + message.content).size() > 0`,
];

function message(content: string): CountedMessage {
  return { id: 'm', role: 'user', content, createdAt: 0, tokenCount: 1 };
}

function run(expression: string, content: string, runs = 5): { ms: number; outcome: string } {
  const condition = compileCondition(expression, 'bench');
  let worst = 0;
  let outcome = '';
  for (let i = 0; i < runs; i++) {
    const vars = { message: messageVars(message(content)) };
    vars.message.content; // text extraction is the message's, not the condition's
    const t0 = performance.now();
    try {
      outcome = String(condition.evaluate(vars, 'm'));
    } catch (error) {
      if (!MemError.hasCode(error, 'MEM_CONDITION')) throw error;
      outcome = 'MemConditionError';
    }
    worst = Math.max(worst, performance.now() - t0);
  }
  return { ms: worst, outcome };
}

// Warm-up (JIT), discarded: every condition on small inputs of both kinds.
for (const expression of accepted) {
  for (const content of [prose.slice(0, 5_000), as.slice(0, 5_000)]) run(expression, content, 20);
}

const rows: Record<string, string | number>[] = [];
let slowest = 0;
for (const expression of accepted) {
  const { cost } = compileCondition(expression, 'bench');
  const admitted = Math.min(
    MB,
    Math.floor((COST_LIMITS.evaluationBudget - cost.constant) / Math.max(cost.perInput, 1e-9)),
  );
  for (const [input, content] of [
    ['1 MB prose', prose],
    ['1 MB aaaa', as],
    [`${admitted} prose`, flat(prose.slice(0, admitted))],
    [`${admitted} aaaa`, flat(as.slice(0, admitted))],
  ] as const) {
    const { ms, outcome } = run(expression, content);
    slowest = Math.max(slowest, ms);
    rows.push({
      condition: expression.length > 60 ? `${expression.slice(0, 57)}...` : expression,
      input: input,
      'estimate (units)': Math.round(costOn(cost, content.length)),
      'worst of 5': `${ms.toFixed(2)} ms`,
      outcome,
    });
  }
}
printTable('Conditions on large messages (budget: < 50 ms or MemConditionError)', rows);
const refusals = refused.map((expression) => {
  try {
    compileCondition(expression, 'bench');
    return { condition: expression.slice(0, 60), compiled: 'accepted' };
  } catch (error) {
    return { condition: expression.slice(0, 60), compiled: (error as Error).name };
  }
});
printTable('Shapes from issue 10 case 6', refusals);
console.log(
  JSON.stringify({
    bench: 'conditions',
    node: process.version,
    budgetUnits: COST_LIMITS.evaluationBudget,
    slowestMs: slowest,
    refused: refusals.every((r) => r.compiled === 'MemConfigError'),
  }),
);
