import { MemStoreConflictError } from '../errors/errors.ts';

/**
 * A compaction or erase planned at `expectedEpoch` lost: another compaction, erase, replace or
 * clear rewrote the session first. `expectedVersion` / `actualVersion` carry the epochs.
 */
export function epochConflictError(
  sessionId: string,
  expectedEpoch: number,
  actualEpoch: number,
): MemStoreConflictError {
  const error = new MemStoreConflictError({
    sessionId,
    expectedVersion: expectedEpoch,
    actualVersion: actualEpoch,
  });
  error.message =
    `[mem/store] session ${JSON.stringify(sessionId)} is at epoch ${actualEpoch}, expected ` +
    `${expectedEpoch}: another compaction, erase, replace or clear won. Read the session again and re-plan.`;
  return error;
}

/** A replace with `expectedVersion` lost: the session changed since it was read. */
export function versionConflictError(
  sessionId: string,
  expectedVersion: number,
  actualVersion: number,
): MemStoreConflictError {
  return new MemStoreConflictError({ sessionId, expectedVersion, actualVersion });
}
