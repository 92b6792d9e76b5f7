import { MemValidationError } from '@mem/core';

/*
 * Opaque `list` cursors: the last session id returned; the next page starts after it in UTF-16
 * order, so sessions created or removed between pages never make a page repeat or skip a session
 * that existed throughout. Same format as the in-memory store's cursors.
 */
export function encodeListCursor(afterSessionId: string): string {
  return Buffer.from(JSON.stringify({ v: 1, after: afterSessionId }), 'utf8').toString('base64url');
}

/** @throws MemValidationError (field `cursor`) for anything `encodeListCursor` did not produce. */
export function decodeListCursor(cursor: string): string {
  try {
    if (/^[A-Za-z0-9_-]+$/.test(cursor)) {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(
        Buffer.from(cursor, 'base64url'),
      );
      const value: unknown = JSON.parse(text);
      if (
        typeof value === 'object' &&
        value !== null &&
        (value as { v?: unknown }).v === 1 &&
        typeof (value as { after?: unknown }).after === 'string'
      ) {
        return (value as { after: string }).after;
      }
    }
  } catch {
    // fall through to the error below
  }
  throw new MemValidationError(
    'cursor',
    '[mem/redis] invalid list cursor; pass back the cursor of the previous page unchanged.',
  );
}
