import { MemValidationError } from '../errors/errors.ts';
import type { CountedMessage } from '../model/message.ts';
import type {
  AppendResult,
  IdempotencyRecord,
  PopResult,
  SessionInfo,
  StoredMessage,
  SummaryRecord,
} from './store-spec.ts';
import { boundToOtherUserError } from './user-binding.ts';

/** How many applied idempotency keys the in-memory store remembers per session (oldest go first). */
export const IDEMPOTENCY_WINDOW = 1024;

/** The counters that outlive a `clear` (see `createInMemoryStore`). */
export interface SessionCounters {
  version: number;
  epoch: number;
  lastSeq: number;
}

/**
 * One session of the in-memory store. Every function here is synchronous and either throws before
 * changing anything or applies the whole change, which is what makes store operations atomic.
 * Stored messages and records are private copies and are never mutated in place.
 */
export interface SessionState extends SessionCounters {
  id: string;
  /** The user the session is bound to (Store v3); absent while it has none. */
  userId?: string;
  createdAt: number;
  updatedAt: number;
  tokenCount: number;
  /** Active messages sorted by seq, so reads binary-search and slice. */
  active: StoredMessage[];
  /** Ids of active and archived messages. */
  ids: Set<string>;
  /** Summary id -> the originals it replaced, oldest first. */
  archive: Map<string, StoredMessage[]>;
  /** Summary records, oldest first. */
  summaries: Map<string, SummaryRecord>;
  /** Applied idempotency keys, oldest first. */
  keys: Map<string, IdempotencyRecord>;
}

export function createSessionState(
  id: string,
  counters: SessionCounters,
  now: number,
): SessionState {
  return {
    id,
    ...counters,
    createdAt: now,
    updatedAt: now,
    tokenCount: 0,
    active: [],
    ids: new Set(),
    archive: new Map(),
    summaries: new Map(),
    keys: new Map(),
  };
}

export function sessionInfo(s: SessionState): SessionInfo {
  const info: SessionInfo = {
    id: s.id,
    version: s.version,
    epoch: s.epoch,
    lastSeq: s.lastSeq,
    messageCount: s.active.length,
    tokenCount: s.tokenCount,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
  if (s.userId !== undefined) info.userId = s.userId;
  return info;
}

/** Messages the session stores: active and archived (what `forgetUser` counts). */
export function storedMessageCount(s: SessionState): number {
  let count = s.active.length;
  for (const id of s.summaries.keys()) count += s.archive.get(id)?.length ?? 0;
  return count;
}

/**
 * Refuses an append naming another user than the session's (see `AppendOptions.userId`); an
 * append naming none, or the session's own, passes.
 */
export function assertSameUser(s: SessionState, userId: string | undefined): void {
  if (userId !== undefined && s.userId !== undefined && s.userId !== userId) {
    throw boundToOtherUserError(s.id);
  }
}

/** The first result of an already applied key, marked as a duplicate. */
export function findDuplicate(s: SessionState, key: string): AppendResult | undefined {
  const record = s.keys.get(key);
  if (record === undefined) return undefined;
  const { key: _key, ...result } = record;
  return { ...result, duplicate: true };
}

/** Rejects ids already used in the session, active or archived. */
export function assertNewIds(s: SessionState, messages: readonly { id: string }[]): void {
  messages.forEach((m, i) => {
    if (s.ids.has(m.id)) {
      throw new MemValidationError(
        `messages[${i}].id`,
        `[mem/store] messages[${i}].id ${JSON.stringify(m.id)} is already used in session ${JSON.stringify(s.id)}; message ids are unique per session (active or archived).`,
      );
    }
  });
}

/** Appends a checked, non-empty batch with fresh ids (see `assertNewIds`). */
export function appendToSession(
  s: SessionState,
  messages: readonly CountedMessage[],
  key: string,
  now: number,
): AppendResult {
  const firstSeq = s.lastSeq + 1;
  for (const message of messages) {
    s.lastSeq += 1;
    s.active.push({ ...message, seq: s.lastSeq });
    s.ids.add(message.id);
    s.tokenCount += message.tokenCount;
  }
  touch(s, now, false);
  const record: IdempotencyRecord = {
    key,
    version: s.version,
    epoch: s.epoch,
    firstSeq,
    lastSeq: s.lastSeq,
  };
  s.keys.set(key, record);
  if (s.keys.size > IDEMPOTENCY_WINDOW) {
    const oldest = s.keys.keys().next();
    if (oldest.done !== true) s.keys.delete(oldest.value);
  }
  return { version: s.version, epoch: s.epoch, firstSeq, lastSeq: s.lastSeq, duplicate: false };
}

/**
 * Removes the newest active message for good, unless it is a summary (see `StoreV1.pop`): its id
 * is freed, `lastSeq` and the idempotency keys stay.
 */
export function popNewest(s: SessionState, now: number): PopResult {
  const newest = s.active.at(-1);
  if (newest === undefined || s.summaries.has(newest.id)) {
    return { version: s.version, epoch: s.epoch, message: null };
  }
  s.active.pop();
  s.ids.delete(newest.id);
  s.tokenCount -= newest.tokenCount;
  touch(s, now, true);
  return { version: s.version, epoch: s.epoch, message: newest };
}

/** Records a change: version always, epoch when the prefix was rewritten. */
export function touch(s: SessionState, now: number, rewritesPrefix: boolean): void {
  s.version += 1;
  if (rewritesPrefix) s.epoch += 1;
  s.updatedAt = now;
}

export function sumTokens(messages: readonly { tokenCount: number }[]): number {
  let sum = 0;
  for (const m of messages) sum += m.tokenCount;
  return sum;
}
