import { MemValidationError, type SessionOptions } from '@mem/core';
import { assertValidUserId } from '@mem/core/backend';

/**
 * The user a run's `configurable.user_id` names (LangGraph's convention, next to `thread_id`),
 * checked like a session id; `undefined` when the run names none.
 */
export function configuredUserId(
  configurable: { readonly [key: string]: unknown } | undefined,
  where: string,
): string | undefined {
  const userId = configurable?.user_id;
  return userId === undefined
    ? undefined
    : checkUserId(userId, 'config.configurable.user_id', where);
}

/** `value` as a user id (1-512 characters of well-formed text, no control characters). */
export function checkUserId(value: unknown, field: string, where: string): string {
  try {
    assertValidUserId(value, field);
    return value;
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^\[mem\/store\] /, '') : '';
    throw new MemValidationError(
      field,
      `[mem/langchain] ${where}: ${field} must be the id of the user the conversation belongs to (1-512 characters of well-formed text, no control characters), or left out: ${why}.`,
      { cause: error },
    );
  }
}

/** `engine.session`'s options for a session of `userId` (none without a user). */
export function sessionOptions(userId: string | undefined): SessionOptions {
  return userId === undefined ? {} : { userId };
}
