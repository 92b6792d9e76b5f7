import { MemValidationError } from '@mem/core';

/*
 * Opaque `list` cursors, the same format as the in-memory store's: the cursor holds the last id
 * returned and the next page starts after it, so sessions created or removed between pages never
 * make a page repeat or skip a session that existed throughout.
 */

export function encodeListCursor(afterSessionId: string): string {
  return Buffer.from(JSON.stringify({ v: 1, after: afterSessionId }), 'utf8').toString('base64url');
}

/** @throws MemValidationError (field `cursor`) for anything `encodeListCursor` did not produce. */
export function decodeListCursor(cursor: string): string {
  try {
    const binary = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (
      typeof value === 'object' &&
      value !== null &&
      (value as { v?: unknown }).v === 1 &&
      typeof (value as { after?: unknown }).after === 'string'
    ) {
      return (value as { after: string }).after;
    }
  } catch {
    // fall through to the error below
  }
  throw new MemValidationError(
    'cursor',
    '[mem/store] invalid list cursor; pass back the cursor of the previous page unchanged.',
  );
}

/**
 * A BLOB that sorts like the id does in JavaScript (by UTF-16 code units): the id as UTF-16BE.
 * SQLite compares BLOBs with memcmp, so `ORDER BY sort_key` is the in-memory store's order.
 */
export function sortKey(sessionId: string): Buffer {
  return Buffer.from(sessionId, 'utf16le').swap16();
}
