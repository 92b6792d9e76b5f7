/**
 * The worst-case work of a condition, estimated from its syntax tree when it is compiled, as a
 * function of N, the size of the largest input value it reads (message content, a metadata
 * value, ...). CEL has no loops beyond list macros, so the estimate is `constant + perInput * N`,
 * unless a macro does per-element work over message data while iterating over message data,
 * which grows as N² and is refused.
 *
 * One unit is about 5 ns of evaluation (calibrated on the slowest operations: `split('')`,
 * concatenation, re2js matching). An evaluation may spend at most `evaluationBudget` units
 * (about 30 ms); the budget is checked against the estimate before the condition runs, so an
 * evaluation that could exceed it fails at once instead of burning time. The estimate itself
 * is in condition-cost.ts.
 */
export const COST_LIMITS = {
  /** Work units one evaluation may spend. */
  evaluationBudget: 6_000_000,
  /**
   * A condition must fit the budget on inputs of at least this many characters; one that
   * cannot is refused when it is compiled.
   */
  minSupportedInput: 500,
  /**
   * Most units per message character one element of a list macro may spend: enough for cheap
   * searches (contains, startsWith, size, ==) of message text, not for split, +, matches.
   */
  maxPerElementPerInput: 8,
} as const;

export interface ConditionCost {
  /** Units that do not depend on the input. */
  readonly constant: number;
  /** Units per character of the largest input value; Infinity when the work grows as N². */
  readonly perInput: number;
  /** The condition reads `message.metadata` (its size then counts as input). */
  readonly readsMetadata: boolean;
  /** Most units per input character that one element of a list macro spends. */
  readonly perElementPerInput: number;
}

/** Work units of a condition with cost `cost` on an input of `inputSize` characters. */
export function costOn(cost: ConditionCost, inputSize: number): number {
  return cost.constant + (cost.perInput === 0 ? 0 : cost.perInput * inputSize);
}

/** Why a condition's cost is refused when it is compiled, or undefined when it is fine. */
export function costProblem(cost: ConditionCost): string | undefined {
  const { evaluationBudget: budget, minSupportedInput } = COST_LIMITS;
  if (cost.perInput === Number.POSITIVE_INFINITY) {
    return (
      'a list macro does work over message data for each element of a list taken from message ' +
      'data, which grows with the square of the message; iterate over a literal list or a ' +
      'metadata list, and test message text with contains() or matches() outside the macro'
    );
  }
  if (cost.perElementPerInput > COST_LIMITS.maxPerElementPerInput) {
    return (
      'a list macro repeats work over message data for each element (split(), +, matches(), ' +
      'lowerAscii() and the like inside all/exists/exists_one/filter/map); only cheap searches ' +
      '(contains, startsWith, endsWith, indexOf, size, ==) may read message text inside a macro'
    );
  }
  if (cost.constant > budget / 2) {
    return `it would spend about ${Math.round(cost.constant)} work units even on empty input (the budget is ${budget})`;
  }
  const fits = Math.floor((budget - cost.constant) / Math.max(cost.perInput, 1e-9));
  if (fits < minSupportedInput) {
    return (
      `it repeats work over message data about ${Math.round(cost.perInput)} units per character, so it ` +
      `fits the evaluation budget only on inputs up to ${fits} characters (at least ` +
      `${minSupportedInput} are required); avoid split(), +, matches() and other per-character ` +
      'work on message fields inside a macro over a list'
    );
  }
  return undefined;
}
