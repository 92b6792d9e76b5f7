import type { ParseResult } from '@marcbachmann/cel-js';
import { type ConfigIssue, MemConditionError, MemConfigError } from '../errors/errors.ts';
import { COST_LIMITS, type ConditionCost, costOn, costProblem } from './condition-budget.ts';
import { estimateConditionCost } from './condition-cost.ts';
import { CONDITION_LIMITS, conditionEnvironment } from './condition-environment.ts';
import { type ConditionVars, conditionInputSize } from './condition-vars.ts';
import { type ConditionShape, inspectCondition } from './inspect-condition.ts';

/**
 * A condition string from the config (`"message.role != 'tool'"`), parsed and type-checked once.
 * Conditions are CEL: no loops beyond bounded list macros, no side effects, no access to
 * anything but the `message` and `interaction` variables.
 */
export interface CompiledCondition {
  readonly expression: string;
  /** Where the condition sits in the config, e.g. `short_term_memory_strategy[0].conditions[1]`. */
  readonly path: string;
  /** The condition reads `message`; evaluating it without one fails. */
  readonly usesMessage: boolean;
  /** The condition reads `interaction`; evaluating it without one fails. */
  readonly usesInteraction: boolean;
  /** Worst-case work, checked against the evaluation budget before every run. */
  readonly cost: ConditionCost;
  /**
   * Runs the condition. Returns its boolean result, or throws MemConditionError when it fails
   * (a missing map key, a division by zero, a variable that was not given, a limit reached, or
   * an input so large that the condition could exceed its work budget, checked before it runs).
   */
  evaluate(vars: ConditionVars, messageId?: string): boolean;
}

/** Compiles one condition; throws MemConfigError naming `path` when it is not usable. */
export function compileCondition(expression: string, path: string): CompiledCondition {
  const result = tryCompile(expression, path);
  if ('issue' in result) throw new MemConfigError([result.issue]);
  return result.condition;
}

/**
 * Compiles a list of conditions found at `basePath` (each at `basePath[i]`); throws one
 * MemConfigError listing every condition that is not usable.
 */
export function compileConditions(
  expressions: readonly string[],
  basePath: string,
): CompiledCondition[] {
  const compiled: CompiledCondition[] = [];
  const issues: ConfigIssue[] = [];
  expressions.forEach((expression, i) => {
    const result = tryCompile(expression, `${basePath}[${i}]`);
    if ('issue' in result) issues.push(result.issue);
    else compiled.push(result.condition);
  });
  if (issues.length > 0) throw new MemConfigError(issues);
  return compiled;
}

type CompileResult = { condition: CompiledCondition } | { issue: ConfigIssue };

function tryCompile(expression: unknown, path: string): CompileResult {
  const fail = (message: string): CompileResult => ({ issue: { path, message } });
  if (typeof expression !== 'string')
    return fail(`a condition must be a string, got ${typeof expression}`);
  const quoted = quote(expression);
  if (expression.length > CONDITION_LIMITS.maxLength) {
    return fail(
      `${quoted} is ${expression.length} characters long; a condition may have at most ${CONDITION_LIMITS.maxLength}`,
    );
  }
  if (expression.trim() === '') return fail('a condition must not be empty');

  let parsed: ParseResult;
  let shape: ConditionShape;
  try {
    parsed = conditionEnvironment().parse(expression);
    shape = inspectCondition(parsed.ast);
  } catch (error) {
    return fail(`${quoted} does not parse: ${describeCelError(error)}`);
  }
  if (shape.problems.length > 0)
    return fail(`${quoted} is not allowed: ${shape.problems.join('; ')}`);
  const cost = estimateConditionCost(parsed.ast);
  const tooCostly = costProblem(cost);
  if (tooCostly !== undefined) return fail(`${quoted} is too expensive: ${tooCostly}`);

  let checked: ReturnType<ParseResult['check']>;
  try {
    checked = parsed.check();
  } catch (error) {
    return fail(`${quoted} cannot be checked: ${describeCelError(error)}`);
  }
  if (!checked.valid) {
    const hint =
      checked.error?.code === 'unknown_variable'
        ? ' (the variables are message and interaction)'
        : '';
    return fail(`${quoted} is invalid: ${describeCelError(checked.error)}${hint}`);
  }
  if (checked.type !== 'bool' && checked.type !== 'dyn') {
    return fail(`${quoted} must be true or false, but its type is ${checked.type}`);
  }
  return {
    condition: createCondition(expression, path, parsed, shape, cost),
  };
}

function createCondition(
  expression: string,
  path: string,
  run: ParseResult,
  shape: ConditionShape,
  cost: ConditionCost,
): CompiledCondition {
  const { usesMessage, usesInteraction } = shape;
  const failure = (reason: string, messageId: string | undefined, cause?: unknown) =>
    new MemConditionError(
      messageId === undefined
        ? { expression, path, reason }
        : { expression, path, messageId, reason },
      cause === undefined ? {} : { cause },
    );
  return {
    expression,
    path,
    usesMessage,
    usesInteraction,
    cost,
    evaluate(vars: ConditionVars, messageId?: string): boolean {
      if (usesMessage && vars.message === undefined) {
        throw failure('it reads `message`, but no message was given', messageId);
      }
      if (usesInteraction && vars.interaction === undefined) {
        throw failure('it reads `interaction`, but no interaction was given', messageId);
      }
      let size = 0;
      try {
        if (cost.perInput > 0) size = conditionInputSize(vars, cost.readsMetadata);
      } catch (error) {
        throw failure(describeCelError(error), messageId, error);
      }
      const units = costOn(cost, size);
      if (units > COST_LIMITS.evaluationBudget) {
        throw failure(
          `on an input of ${size} characters it could spend ${Math.round(units)} work units, ` +
            `over the budget of ${COST_LIMITS.evaluationBudget} per evaluation, so it was not run`,
          messageId,
        );
      }
      let result: unknown;
      try {
        result = run(vars);
      } catch (error) {
        throw failure(describeCelError(error), messageId, error);
      }
      if (typeof result !== 'boolean') {
        throw failure(`it returned ${describeResult(result)} instead of true or false`, messageId);
      }
      return result;
    },
  };
}

/** A CEL error's one-line summary and column, or the message of any other error. */
function describeCelError(error: unknown): string {
  if (error instanceof RangeError) return `it is too large or too deeply nested (${error.message})`;
  if (!(error instanceof Error)) return String(error);
  const { summary, range } = error as Error & { summary?: unknown; range?: { start?: unknown } };
  const text = typeof summary === 'string' ? summary : error.message;
  return typeof range?.start === 'number' ? `${text} (at column ${range.start + 1})` : text;
}

function describeResult(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return `the int ${value}`;
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Map) return 'a map';
  return `a ${typeof value}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}
