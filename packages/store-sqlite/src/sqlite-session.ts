import {
  type AppendResult,
  type CountedMessage,
  MemStoreConflictError,
  MemValidationError,
  type SessionInfo,
  type StoredMessage,
} from '@mem/core';
import { sortKey } from './list-cursor.ts';
import type { MessageRow, SessionKey, SessionRow, Statements } from './statements.ts';

/** How many applied idempotency keys are kept per session (the newest). */
export const IDEMPOTENCY_WINDOW = 1024;
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
  return {
    id: sessionId,
    version: row.version,
    epoch: row.epoch,
    lastSeq: row.last_seq,
    messageCount: row.message_count,
    tokenCount: row.token_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Writes the session row: the head as live, `expiresAt` refreshed by the caller. */
export function saveHead(
  st: Statements,
  key: SessionKey,
  head: SessionHead,
  expiresAt: number | null,
  live = true,
): void {
  st.upsertSession.run({
    ...key,
    sortKey: sortKey(key.sid),
    live: live ? 1 : 0,
    version: head.version,
    epoch: head.epoch,
    lastSeq: head.lastSeq,
    messageCount: head.messageCount,
    tokenCount: head.tokenCount,
    createdAt: head.createdAt,
    updatedAt: head.updatedAt,
    expiresAt,
  });
}

/** Records a change: version always, epoch when the prefix was rewritten. */
export function touch(head: SessionHead, at: number, rewritesPrefix: boolean): void {
  head.version += 1;
  if (rewritesPrefix) head.epoch += 1;
  head.updatedAt = at;
}

export function storedOf(row: { seq: number; json: string }): StoredMessage {
  return { ...(JSON.parse(row.json) as CountedMessage), seq: row.seq };
}

export function messageRowOf(message: CountedMessage, seq: number): MessageRow {
  return { seq, id: message.id, token_count: message.tokenCount, json: JSON.stringify(message) };
}

export function insertMessage(st: Statements, key: SessionKey, row: MessageRow): void {
  st.insertMessage.run({
    ...key,
    seq: row.seq,
    id: row.id,
    tokenCount: row.token_count,
    json: row.json,
  });
}

/** The first result of an already applied key, marked as a duplicate. */
export function findDuplicate(
  st: Statements,
  key: SessionKey,
  idempotencyKey: string,
): AppendResult | undefined {
  const row = st.idempotencyKey.get({ ...key, key: idempotencyKey });
  if (row === undefined) return undefined;
  const { version, epoch, first_seq: firstSeq, last_seq: lastSeq } = row;
  return { version, epoch, firstSeq, lastSeq, duplicate: true };
}

export function idUsed(st: Statements, key: SessionKey, id: string): boolean {
  return st.idUsed.get({ ...key, id })?.found === 1;
}

/** Rejects ids already used in the session, active or archived. */
export function assertNewIds(
  st: Statements,
  key: SessionKey,
  messages: readonly { id: string }[],
): void {
  messages.forEach((m, i) => {
    if (idUsed(st, key, m.id)) {
      throw new MemValidationError(
        `messages[${i}].id`,
        `[mem/store] messages[${i}].id ${JSON.stringify(m.id)} is already used in session ${JSON.stringify(key.sid)}; message ids are unique per session (active or archived).`,
      );
    }
  });
}

/** Appends a checked, non-empty batch with fresh ids and records its idempotency key. */
export function appendMessages(
  st: Statements,
  key: SessionKey,
  head: SessionHead,
  messages: readonly CountedMessage[],
  idempotencyKey: string,
  at: number,
): AppendResult {
  const firstSeq = head.lastSeq + 1;
  for (const message of messages) {
    head.lastSeq += 1;
    insertMessage(st, key, messageRowOf(message, head.lastSeq));
    head.messageCount += 1;
    head.tokenCount += message.tokenCount;
  }
  touch(head, at, false);
  const { version, epoch, lastSeq } = head;
  st.insertIdempotencyKey.run({ ...key, key: idempotencyKey, version, epoch, firstSeq, lastSeq });
  // Trimming walks the kept keys, so it runs once every TRIM_EVERY versions (amortized O(1)):
  // a session keeps between 1,024 and 1,024 + TRIM_EVERY keys, always at least the newest 1,024.
  if (version % TRIM_EVERY === 0) st.trimIdempotencyKeys.run({ ...key, keep: IDEMPOTENCY_WINDOW });
  return { version, epoch, firstSeq, lastSeq, duplicate: false };
}

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
