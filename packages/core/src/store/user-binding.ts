import { MemValidationError } from '../errors/errors.ts';

/**
 * The error of an append that names another user than the one its session is bound to (Store
 * v3, `AppendOptions.userId`). Shared by every backend so the refusal reads the same everywhere;
 * it never names the bound user.
 */
export function boundToOtherUserError(sessionId: string): MemValidationError {
  return new MemValidationError(
    'userId',
    `[mem/store] invalid userId: session ${JSON.stringify(sessionId)} belongs to another user ` +
      '(a session keeps the user its first append named). Use a new session id for this user.',
  );
}
