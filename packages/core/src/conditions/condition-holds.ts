import type { MemConditionError } from '../errors/errors.ts';
import { MemError } from '../errors/mem-error.ts';
import type { CompiledCondition } from './compile-condition.ts';
import type { ConditionVars } from './condition-vars.ts';

/**
 * Told about a condition that failed on a message (a missing metadata key, a division by zero,
 * an input over the work budget); the condition then counted as not holding.
 */
export type ConditionErrorHandler = (error: MemConditionError) => void;

/**
 * How the engine applies a condition: its result, or false when it fails at run time
 * (MemConditionError), after telling `onError` why. So one bad message can hide itself from
 * the prompt or from a trigger count, but never makes `context()` or `append()` throw.
 */
export function holds(
  condition: CompiledCondition,
  vars: ConditionVars,
  messageId: string | undefined,
  onError: ConditionErrorHandler | undefined,
): boolean {
  try {
    return condition.evaluate(vars, messageId);
  } catch (error) {
    if (!MemError.hasCode(error, 'MEM_CONDITION')) throw error;
    onError?.(error as MemConditionError);
    return false;
  }
}
