import type { StoredMessage, SummaryRecord } from './store-spec.ts';

/*
 * Cheap structural checks for data a backend reads back. Everything a store writes was checked
 * with core's parsers on the way in, so reading back only has to guard against data the store did
 * not write (a hand edit, another program, a bad restore): the fields engines rely on, not the
 * full schema. Backends turn a failed check into a MemStoreError naming the session.
 */

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;

/** A message read back: id, role, content, createdAt and tokenCount of the right types. */
export function isStoredMessageShape(value: unknown): value is Omit<StoredMessage, 'seq'> {
  return (
    isObject(value) &&
    typeof value.id === 'string' &&
    typeof value.role === 'string' &&
    ROLES.has(value.role) &&
    isCount(value.tokenCount) &&
    typeof value.createdAt === 'number' &&
    (typeof value.content === 'string' || Array.isArray(value.content))
  );
}

/** A summary record read back: ids, seq range, token counts and times of the right types. */
export function isSummaryRecordShape(value: unknown): value is SummaryRecord {
  return (
    isObject(value) &&
    typeof value.id === 'string' &&
    Array.isArray(value.originalMessageIds) &&
    value.originalMessageIds.every((id) => typeof id === 'string') &&
    isCount(value.fromSeq) &&
    isCount(value.throughSeq) &&
    isCount(value.originalTokenCount) &&
    isCount(value.tokenCount) &&
    typeof value.createdAt === 'number' &&
    isObject(value.timeRange)
  );
}
