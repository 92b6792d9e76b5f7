/**
 * A BLOB that sorts like the id does in JavaScript (by UTF-16 code units): the id as UTF-16BE.
 * SQLite compares BLOBs with memcmp, so `ORDER BY sort_key` is the in-memory store's order, and
 * core's `list` cursors (`encodeListCursor`) page through it.
 */
export function sortKey(sessionId: string): Buffer {
  return Buffer.from(sessionId, 'utf16le').swap16();
}
