import { MemStoreError } from '@mem/core';
import {
  isStoredMessageShape,
  isSummaryRecordShape,
  type StoredMessage,
  type SummaryRecord,
} from '@mem/core/backend';

/*
 * Rows read back are checked at this boundary: every row was checked with core's parsers when
 * this store wrote it, so reading only guards against rows written by something else (a cheap
 * structural check, not the full schema). A row that fails is a MemStoreError, never returned.
 */

/** An active or archived message row as a StoredMessage. @throws MemStoreError when corrupt. */
export function storedOf(row: { seq: number; json: string }, sessionId: string): StoredMessage {
  const value = parse(row.json, sessionId, `message seq ${row.seq}`);
  if (!isStoredMessageShape(value)) throw corrupt(sessionId, `message seq ${row.seq}`);
  // The parsed object is this call's own: give it its seq in place (a spread copy cost more
  // than the parse itself).
  const message = value as StoredMessage;
  message.seq = row.seq;
  return message;
}

/** A summary record row. @throws MemStoreError when corrupt. */
export function recordOf(json: string, sessionId: string): SummaryRecord {
  const value = parse(json, sessionId, 'summary record');
  if (!isSummaryRecordShape(value)) throw corrupt(sessionId, 'summary record');
  return value;
}

function parse(json: string, sessionId: string, what: string): unknown {
  try {
    return JSON.parse(json);
  } catch (error) {
    throw corrupt(sessionId, what, error);
  }
}

function corrupt(sessionId: string, what: string, cause?: unknown): MemStoreError {
  return new MemStoreError(
    `[mem/sqlite] a ${what} of session ${JSON.stringify(sessionId)} read back from the database is corrupt (not what this store writes); restore the session from an export or clear it.`,
    cause === undefined ? {} : { cause },
  );
}
