import { MemValidationError } from '../errors/errors.ts';

/**
 * Opaque `list` cursors for stores that page through session ids in sorted order (the in-memory,
 * SQLite and Redis stores share this format): the cursor
 * holds the last id returned, and the next page starts after it. Sessions created or removed
 * between pages therefore never make a page repeat or skip a session that existed throughout.
 */
export function encodeListCursor(afterSessionId: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ v: 1, after: afterSessionId }));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
}

/** @throws MemValidationError (field `cursor`) for anything `encodeListCursor` did not produce. */
export function decodeListCursor(cursor: string): string {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
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

/** Index of the first id greater than `after` in ids sorted by UTF-16 code units. */
export function indexAfterId(sortedIds: readonly string[], after: string): number {
  let lo = 0;
  let hi = sortedIds.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sortedIds[mid] as string) <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
