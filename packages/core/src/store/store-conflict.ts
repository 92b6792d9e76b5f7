import { MemStoreConflictError } from '../errors/errors.ts';

/** A `compact` or `erase` planned at `expectedEpoch` lost to another rewrite of the session. */
export function epochConflictError(
  sessionId: string,
  expectedEpoch: number,
  actualEpoch: number,
): MemStoreConflictError {
  return new MemStoreConflictError({
    sessionId,
    counter: 'epoch',
    expected: expectedEpoch,
    actual: actualEpoch,
  });
}

/** A `replace` with `expectedVersion` lost: the session changed since it was read. */
export function versionConflictError(
  sessionId: string,
  expectedVersion: number,
  actualVersion: number,
): MemStoreConflictError {
  return new MemStoreConflictError({
    sessionId,
    counter: 'version',
    expected: expectedVersion,
    actual: actualVersion,
  });
}

/**
 * A `writeUserFacts` at `expectedVersion` lost: the user's facts changed since they were read.
 * A `MemStoreConflictError` on the `version` counter with `userId` set; its `sessionId` is empty
 * (no session is involved).
 */
export function userFactsConflictError(
  userId: string,
  expectedVersion: number,
  actualVersion: number,
): MemStoreConflictError {
  return new MemStoreConflictError({
    sessionId: '',
    userId,
    counter: 'version',
    expected: expectedVersion,
    actual: actualVersion,
  });
}
