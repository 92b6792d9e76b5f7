import { MemValidationError } from '@mem/core';
import {
  type AppendResult,
  boundToOtherUserError,
  type CountedMessage,
  type EncodedMessage,
  type SessionInfo,
} from '@mem/core/backend';
import type { MessageRow, SessionRef, SessionRow, Statements } from './statements.ts';

/** How many applied idempotency keys are kept per session (the newest). */
export const IDEMPOTENCY_WINDOW = 1024;
/** Rows per multi-row INSERT of an append (5 parameters each, well under SQLite's limit). */
const MAX_ROWS_PER_INSERT = 16;
/** Appends between two trims of the idempotency keys. */
const TRIM_EVERY = 128;

/**
 * A session's row as the write in progress sees it. `live: false` is a fresh session that
 * continues the counters left by a clear (or starts at 0).
 */
export interface SessionHead {
  live: boolean;
  version: number;
  epoch: number;
  lastSeq: number;
  messageCount: number;
  tokenCount: number;
  createdAt: number;
  updatedAt: number;
}

export function headOf(row: SessionRow | undefined, at: number): SessionHead {
  if (row === undefined) {
    return blankHead({ version: 0, epoch: 0, lastSeq: 0 }, at);
  }
  if (row.live !== 1) {
    return blankHead({ version: row.version, epoch: row.epoch, lastSeq: row.last_seq }, at);
  }
  return {
    live: true,
    version: row.version,
    epoch: row.epoch,
    lastSeq: row.last_seq,
    messageCount: row.message_count,
    tokenCount: row.token_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function blankHead(
  counters: { version: number; epoch: number; lastSeq: number },
  at: number,
): SessionHead {
  return { live: false, ...counters, messageCount: 0, tokenCount: 0, createdAt: at, updatedAt: at };
}

export function isExpired(row: SessionRow | undefined, at: number): boolean {
  return row?.expires_at != null && at >= row.expires_at;
}

export function infoOf(sessionId: string, row: SessionRow): SessionInfo {
  const info: SessionInfo = {
    id: sessionId,
    version: row.version,
    epoch: row.epoch,
    lastSeq: row.last_seq,
    messageCount: row.message_count,
    tokenCount: row.token_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.user_id !== null) info.userId = row.user_id;
  return info;
}

/**
 * Checks an append's `userId` against the session's binding (before anything is written,
 * duplicate key or not): returns the user to bind the session to now, if any.
 *
 * @throws MemValidationError (field `userId`) when the session belongs to another user.
 */
export function userToBind(
  row: SessionRow | undefined,
  sessionId: string,
  userId: string | undefined,
): string | undefined {
  if (userId === undefined) return undefined;
  const bound = row?.live === 1 ? row.user_id : null;
  if (bound === null) return userId;
  if (bound === userId) return undefined;
  throw boundToOtherUserError(sessionId);
}

/** Writes the session row's counters: the head as live, `expiresAt` refreshed by the caller. */
export function saveHead(
  st: Statements,
  ref: SessionRef,
  head: SessionHead,
  expiresAt: number | null,
  live = true,
): void {
  st.saveSession.run(
    live ? 1 : 0,
    head.version,
    head.epoch,
    head.lastSeq,
    head.messageCount,
    head.tokenCount,
    head.createdAt,
    head.updatedAt,
    expiresAt,
    ref.id,
  );
}

/** Records a change: version always, epoch when the prefix was rewritten. */
export function touch(head: SessionHead, at: number, rewritesPrefix: boolean): void {
  head.version += 1;
  if (rewritesPrefix) head.epoch += 1;
  head.updatedAt = at;
}

export function messageRowOf(message: CountedMessage, seq: number): MessageRow {
  return { seq, id: message.id, token_count: message.tokenCount, json: JSON.stringify(message) };
}

export function insertMessage(st: Statements, ref: SessionRef, row: MessageRow): void {
  st.insertMessage.run(ref.id, row.seq, row.id, row.token_count, row.json);
}

/** The first result of an already applied key, marked as a duplicate. */
export function findDuplicate(
  st: Statements,
  ref: SessionRef,
  idempotencyKey: string,
): AppendResult | undefined {
  const row = st.idempotencyKey.get(ref.id, idempotencyKey);
  if (row === undefined) return undefined;
  const { version, epoch, first_seq: firstSeq, last_seq: lastSeq } = row;
  return { version, epoch, firstSeq, lastSeq, duplicate: true };
}

/** True when `id` is used by an archived message or an active one with `seq <= lastSeq`. */
export function idUsed(
  st: Statements,
  ref: SessionRef,
  id: string,
  lastSeq = Number.MAX_SAFE_INTEGER,
): boolean {
  return st.idUsed.get({ s: ref.id, id, last: lastSeq })?.found === 1;
}

/** Rejects ids already used in the session (active up to `lastSeq`, or archived). */
export function assertNewIds(
  st: Statements,
  ref: SessionRef,
  messages: readonly { id: string }[],
  lastSeq?: number,
): void {
  messages.forEach((m, i) => {
    if (idUsed(st, ref, m.id, lastSeq)) {
      throw new MemValidationError(
        `messages[${i}].id`,
        `[mem/store] messages[${i}].id ${JSON.stringify(m.id)} is already used in session ${JSON.stringify(ref.sid)}; message ids are unique per session (active or archived).`,
      );
    }
  });
}

/**
 * Appends a checked, non-empty batch (`encodeMessageBatch`) and records its idempotency key; when the key was
 * already applied, changes nothing and returns its first result (`duplicate: true`, `head` untouched).
 * Used ids are rejected like `assertNewIds` would, but the common case costs no lookups: the key
 * goes in first (ON CONFLICT DO NOTHING tells a known key), UNIQUE (session, id) checks the active
 * ids as the rows go in, and archived ids are looked up only when the session has an archive.
 */
export function appendMessages(
  st: Statements,
  ref: SessionRef,
  head: SessionHead,
  hasArchive: boolean,
  messages: readonly EncodedMessage[],
  idempotencyKey: string,
  at: number,
): AppendResult {
  const before = head.lastSeq;
  const firstSeq = before + 1;
  const lastSeq = before + messages.length;
  const version = head.version + 1;
  const { epoch } = head;
  // ord = version: a session's versions only grow, so ord orders its keys oldest first.
  const added = st.insertIdempotencyKey.run(
    ref.id,
    idempotencyKey,
    version,
    version,
    epoch,
    firstSeq,
    lastSeq,
  );
  if (added.changes === 0) return findDuplicate(st, ref, idempotencyKey) as AppendResult;
  if (hasArchive) {
    const ids = JSON.stringify(messages.map((m) => m.id));
    if (st.anyArchived.get(ref.id, ids)?.found === 1) assertNewIds(st, ref, messages, before);
  }
  const params: unknown[] = [];
  let seq = before;
  let tokens = 0;
  for (const message of messages) {
    seq += 1;
    params.push(ref.id, seq, message.id, message.tokenCount, message.json);
    tokens += message.tokenCount;
  }
  try {
    // One statement for the batch (up to MAX_ROWS_PER_INSERT rows each).
    for (let i = 0; i < messages.length; i += MAX_ROWS_PER_INSERT) {
      const rows = Math.min(MAX_ROWS_PER_INSERT, messages.length - i);
      st.insertMessages(rows).run(...params.slice(i * 5, (i + rows) * 5));
    }
  } catch (error) {
    // A UNIQUE (session, id) violation: report the first used id (the batch's own rows, all
    // after `before`, do not count), as the check up front would have. Anything else rethrows.
    assertNewIds(st, ref, messages, before);
    throw error;
  }
  head.lastSeq = lastSeq;
  head.messageCount += messages.length;
  head.tokenCount += tokens;
  touch(head, at, false);
  // Trimming walks the kept keys, so it runs once every TRIM_EVERY versions (amortized O(1)):
  // a session keeps between 1,024 and 1,024 + TRIM_EVERY keys, always at least the newest 1,024.
  if (version % TRIM_EVERY === 0) {
    st.trimIdempotencyKeys.run({ s: ref.id, keep: IDEMPOTENCY_WINDOW });
  }
  return { version, epoch, firstSeq, lastSeq, duplicate: false };
}
