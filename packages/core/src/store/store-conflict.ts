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
