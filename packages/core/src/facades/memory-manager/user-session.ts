import type { MemoryEngine } from '../../engine/memory-engine.ts';
import type { MemorySession } from '../../engine/memory-session.ts';
import { MemValidationError } from '../../errors/errors.ts';
import { assertValidSessionId, sessionIdProblem } from '../../store/validate-ids.ts';

/** `MemoryManagerOptions.userOf`: the user a session belongs to, or undefined. */
export type UserOf = (sessionId: string) => string | undefined;

/**
 * The engine session of `sessionId`, bound to the user `userOf` names for it (none when it
 * returns undefined). A `userOf` that throws or returns no valid id is a `MemValidationError`
 * naming `userOf`.
 */
export function userSession(
  engine: MemoryEngine,
  userOf: UserOf | undefined,
  sessionId: string,
): MemorySession {
  assertValidSessionId(sessionId);
  if (userOf === undefined) return engine.session(sessionId);
  let userId: unknown;
  try {
    userId = userOf(sessionId);
  } catch (error) {
    throw new MemValidationError(
      'userOf',
      `[mem/core] MemoryManager: userOf(${JSON.stringify(sessionId)}) threw (${error instanceof Error ? error.message : String(error)}); it must return the session's user id, or undefined.`,
      { cause: error },
    );
  }
  if (userId === undefined) return engine.session(sessionId);
  const problem = sessionIdProblem(userId);
  if (problem !== undefined) {
    throw new MemValidationError(
      'userOf',
      `[mem/core] MemoryManager: userOf(${JSON.stringify(sessionId)}) must return a user id (1-512 characters of well-formed text, no control characters) or undefined; invalid userId: ${problem}.`,
    );
  }
  return engine.session(sessionId, { userId: userId as string });
}
