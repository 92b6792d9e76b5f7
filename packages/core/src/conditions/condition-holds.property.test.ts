import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MemConditionError } from '../errors/errors.ts';
import type { CountedMessage } from '../model/message.ts';
import { compileCondition } from './compile-condition.ts';
import { COST_LIMITS, costOn } from './condition-budget.ts';
import { holds } from './condition-holds.ts';
import { conditionInputSize, interactionVars, messageVars } from './condition-vars.ts';

/**
 * Whatever compiles runs: a condition built from pieces that can fail at run time (missing
 * keys, division by zero, wrong types, bad dynamic patterns, large inputs) either holds or not
 * through `holds`, and every failure is a MemConditionError reported to the handler.
 */

const atom = fc.constantFrom(
  'message.metadata.x == 1',
  'message.metadata.x != 1',
  "has(message.metadata.x) && message.metadata.x == 'one'",
  'message.metadata.n / message.metadata.d > 0',
  '1 / (message.tokenCount - message.tokenCount) == 1',
  'int(message.metadata.s) > 2',
  'message.metadata.s.matches(message.metadata.p)',
  "message.content.matches('(a+)+$')",
  "!message.content.matches('password')",
  "message.content.contains('secret')",
  'size(message.content) > 100',
  "message.content.split(' ').size() > 3",
  "message.metadata.tags.exists(t, t == 'a')",
  "['a', 'b'].exists(w, message.content.contains(w))",
  'interaction.toolNames[3] == message.name',
  'message.tokenCount * 9223372036854775807 > 0',
  'interaction.hasError',
);
const expression: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    tie('e').map((e) => `!(${e})`),
    fc
      .tuple(tie('e'), fc.constantFrom('&&', '||'), tie('e'))
      .map(([a, op, b]) => `(${a}) ${op} (${b})`),
  ),
})).e;

const metadataValue = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom('one', '12', '(', 'a+', ''),
  fc.array(fc.constantFrom('a', 'b', 1), { maxLength: 3 }),
  fc.constant(null),
);
const content = fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.constantFrom(100_000, 1_000_001).map((n) => `${'lorem ipsum '.repeat(n / 12 + 1)}password`),
);
const message = fc.record({
  content,
  metadata: fc.dictionary(fc.constantFrom('x', 'n', 'd', 's', 'p', 'tags'), metadataValue),
  tokenCount: fc.integer({ min: 0, max: 100 }),
});

describe('conditions: whatever compiles runs through the engine without throwing', () => {
  it('holds() returns a boolean and reports every failure as MemConditionError', () => {
    fc.assert(
      fc.property(expression, message, (source, input) => {
        let condition: ReturnType<typeof compileCondition>;
        try {
          condition = compileCondition(source, 'conditions[0]');
        } catch {
          return; // refused when the profile is parsed: nothing runs
        }
        const m: CountedMessage = { id: 'm', role: 'user', createdAt: 0, ...input };
        const vars = {
          message: messageVars(m),
          interaction: interactionVars({
            index: 0,
            messages: [m],
            tokenCount: m.tokenCount,
            toolNames: ['search'],
            hasError: false,
          }),
        };
        const errors: MemConditionError[] = [];
        const result = holds(condition, vars, 'm', (e) => errors.push(e));
        expect(typeof result).toBe('boolean');
        for (const error of errors) expect(error.code).toBe('MEM_CONDITION');
        if (errors.length > 0) expect(result).toBe(false);
        const size = conditionInputSize(vars, condition.cost.readsMetadata);
        if (costOn(condition.cost, size) > COST_LIMITS.evaluationBudget) {
          expect(errors[0]?.message).toContain('over the budget');
        }
      }),
      { numRuns: 300 },
    );
  });
});
