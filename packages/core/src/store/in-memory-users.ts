import type { InMemoryNamespace } from './in-memory-backend.ts';
import { copyJsonValue } from './json-value.ts';
import { userFactsConflictError } from './store-conflict.ts';
import type { UserFacts, WriteUserFactsInput, WriteUserFactsResult } from './store-spec.ts';

export function readUserFacts(data: InMemoryNamespace, userId: string): UserFacts {
  const stored = data.userFacts.get(userId);
  if (stored === undefined) return { userId, version: 0, facts: [] };
  return { userId, version: stored.version, facts: copyJsonValue(stored.facts) };
}

/**
 * Compare-and-swap on the version. An empty write leaves the document with no facts at its new
 * version (a tombstone), so a writer that read an older version still conflicts; `input` is
 * checked and owned by the store.
 */
export function writeUserFacts(
  data: InMemoryNamespace,
  userId: string,
  input: WriteUserFactsInput,
): WriteUserFactsResult {
  const current = data.userFacts.get(userId)?.version ?? 0;
  if (input.expectedVersion !== current) {
    throw userFactsConflictError(userId, input.expectedVersion, current);
  }
  const version = current + 1;
  data.userFacts.set(userId, { version, facts: input.facts });
  return { version };
}

/** Deletes the user's facts document (tombstone included); returns how many facts it held. */
export function deleteUserFacts(data: InMemoryNamespace, userId: string): number {
  const count = data.userFacts.get(userId)?.facts.length ?? 0;
  data.userFacts.delete(userId);
  return count;
}
