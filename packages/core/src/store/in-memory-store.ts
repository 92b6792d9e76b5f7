import { MemStoreError } from '../errors/errors.ts';
import { type InMemoryEntry, inMemoryNamespace } from './in-memory-backend.ts';
import { compactSession, eraseSession, flushSession, replaceSession } from './in-memory-rewrite.ts';
import {
  appendToSession,
  assertNewIds,
  assertSameUser,
  createSessionState,
  findDuplicate,
  popNewest,
  type SessionCounters,
  type SessionState,
  sessionInfo,
  storedMessageCount,
} from './in-memory-session.ts';
import { snapshotOf, stateFromSnapshot } from './in-memory-snapshot.ts';
import { checkMemoryStoreOptions, type InMemoryStoreOptions } from './in-memory-store-options.ts';
import { deleteUserFacts, readUserFacts, writeUserFacts } from './in-memory-users.ts';
import { copyJsonValue } from './json-value.ts';
import { decodeListCursor, encodeListCursor, indexAfterId } from './list-cursor.ts';
import { parseSessionSnapshot } from './parse-session-snapshot.ts';
import {
  parseAppendOptions,
  parseCompactInput,
  parseCountedMessages,
  parseEraseInput,
  parseFlushInput,
  parseListOptions,
  parseReadOptions,
  parseReplaceInput,
  parseUserFactsWrite,
} from './parse-store-input.ts';
import { selectSeqRange } from './seq-range.ts';
import { epochConflictError, versionConflictError } from './store-conflict.ts';
import { STORE_SPECIFICATION_VERSION, type Store } from './store-spec.ts';
import { assertValidSessionId, assertValidUserId } from './validate-ids.ts';

export { createInMemoryBackend, type InMemoryBackend } from './in-memory-backend.ts';
export type { InMemoryStoreOptions } from './in-memory-store-options.ts';

const DEFAULT_LIST_LIMIT = 100;

/**
 * A `Store` (spec `mem.store.v3`) that keeps sessions in process memory; not durable, one process.
 *
 * Semantics, shared with every backend through `@mem/store-test-suite`:
 * - Operations are synchronous inside, so each one is atomic: it checks and writes with no
 *   `await` in between, and a failing call changes nothing.
 * - Session ids are checked with `assertValidSessionId` before anything else; inputs are checked
 *   with the Message zod schema, need a non-negative integer `tokenCount` and JSON-safe values.
 * - `seq` starts at 1 and grows by one per appended message; it is never reused, not even after
 *   `clear`. `version` grows by one on every change; `epoch` on compact, erase, replace and clear
 *   (and on a pop or flush that removed something).
 * - `append` rejects an empty batch and ids already used in the session (active or archived). An
 *   idempotency key seen before (the last 1,024 per session are kept, also across compact,
 *   erase and replace) returns its first result with `duplicate: true` and writes nothing.
 * - `compact` and `erase` commit only at `expectedEpoch` (else `MemStoreConflictError`, checked
 *   before the range) and only for a `throughSeq` from the first to the last active seq (else
 *   `MemValidationError`). Compaction archives the prefix under the summary, which gets
 *   `seq = throughSeq`; the summary must be a `system` message with `metadata.kind: 'summary'`
 *   and a new id, and its record must name exactly what moves (`originalMessageIds` in seq
 *   order, `fromSeq`, `previousSummaryId` = the summary folded in, if any); the record's counts,
 *   ratio and times are stored as given. An earlier summary in the prefix is archived like any
 *   message and its record stays readable. Erase deletes the prefix for good (`erasedCount`
 *   counts active messages), and with an erased summary its archived originals and record.
 * - `replace` makes the session exactly the given messages (may be empty), numbered after
 *   `lastSeq`, and drops archive and summaries; `expectedVersion` makes it a compare-and-swap.
 * - `flush` (at `expectedEpoch`, else `MemStoreConflictError`) drops every archive and summary
 *   record and frees the dropped originals' ids (version + 1, epoch + 1); the active messages
 *   keep their seqs. With nothing to drop (unknown, cleared or never compacted) it changes
 *   nothing and returns the current counters.
 * - `pop` removes the newest active message unless it is a summary (version + 1, epoch + 1, id
 *   freed, lastSeq and idempotency keys kept); an empty, unknown or summary-topped session
 *   changes nothing and returns `message: null` with the current counters.
 * - `clear` removes all data but keeps the counters (version + 1, epoch + 1, lastSeq) until the
 *   TTL ends (without a TTL, for good), so a compaction, erase or replace planned before the
 *   clear fails instead of writing stale data into a new conversation under the same id. `info`
 *   and `export` say null, `read` returns no messages at those counters.
 * - `list` pages through live session ids sorted by UTF-16 code units; the cursor is opaque.
 * - Users (v3): the first append naming a `userId` binds the session (checked before the
 *   idempotency key, so a retry naming another user is refused too); `clear` drops the binding,
 *   `import` takes the snapshot's. `list({ userId })` filters by it. User facts live beside the
 *   sessions of the namespace: `writeUserFacts` is a compare-and-swap on the version, an empty
 *   write keeps the version (no facts), `forgetUser` clears each bound session (like `clear`,
 *   counters kept) and deletes the facts document (the user reads as version 0 again). Facts
 *   have no TTL; it scans the namespace's sessions (a user index is not worth it in memory).
 * - With `ttlMs`, a session (or its cleared counters) expires `ttlMs` after its last successful
 *   write (import included); reads, duplicate appends and failed writes do not extend it, and an
 *   expired session reads as if it never existed (counters back to 0). Expired entries are also
 *   swept from the backend at most once per `ttlMs`, on a write.
 * - `summaries` / `archived` return `[]` for an unknown session or summary id. `import` checks
 *   the snapshot (`parseSessionSnapshot`), replaces the session and keeps its newest 1,024 keys.
 * - Everything returned is a copy, and nothing stored aliases the caller's objects.
 * - Reads binary-search the seq-sorted active log, so `from: 'end'` + `limit` costs O(limit).
 */
export function createInMemoryStore(options: InMemoryStoreOptions = {}): Store {
  const { namespace, ttlMs, backend, now } = checkMemoryStoreOptions(options);
  const data = inMemoryNamespace(backend, namespace);
  let closed = false;

  const assertOpen = (): void => {
    if (closed) {
      throw new MemStoreError(
        '[mem/memory] this store is closed; create a new one with createInMemoryStore().',
      );
    }
  };
  const begin = (sessionId: unknown): number => {
    assertValidSessionId(sessionId);
    assertOpen();
    return now();
  };
  const entry = (sessionId: string, at: number): InMemoryEntry | undefined => {
    const found = data.sessions.get(sessionId);
    if (found !== undefined && found.expiresAt !== undefined && at >= found.expiresAt) {
      data.sessions.delete(sessionId);
      return undefined;
    }
    return found;
  };
  const live = (sessionId: string, at: number): SessionState | undefined => {
    const found = entry(sessionId, at);
    return found?.kind === 'live' ? found.state : undefined;
  };
  const counters = (found: InMemoryEntry | undefined): SessionCounters => {
    if (found === undefined) return { version: 0, epoch: 0, lastSeq: 0 };
    const { version, epoch, lastSeq } = found.kind === 'live' ? found.state : found;
    return { version, epoch, lastSeq };
  };
  /** The live session, or a fresh one that continues the counters left by a clear. */
  const stateFor = (sessionId: string, at: number): SessionState => {
    const found = entry(sessionId, at);
    if (found?.kind === 'live') return found.state;
    return createSessionState(sessionId, counters(found), at);
  };
  const commit = (sessionId: string, value: InMemoryEntry, at: number): void => {
    data.sessions.set(sessionId, value);
    if (ttlMs !== undefined && at - data.lastSweepAt >= ttlMs) sweep(at);
  };
  const expiry = (at: number) => (ttlMs === undefined ? undefined : at + ttlMs);
  const save = (state: SessionState, at: number) =>
    commit(state.id, { kind: 'live', state, expiresAt: expiry(at) }, at);
  /** Leaves only the counters of a live session (and no user): see `clear`. */
  const clearLive = (state: SessionState, at: number): void => {
    const { version, epoch, lastSeq } = state;
    const left = { version: version + 1, epoch: epoch + 1, lastSeq };
    commit(state.id, { kind: 'cleared', ...left, expiresAt: expiry(at) }, at);
  };
  const beginUser = (userId: unknown): void => {
    assertValidUserId(userId);
    assertOpen();
  };
  const sweep = (at: number): void => {
    data.lastSweepAt = at;
    for (const [id, found] of data.sessions) {
      if (found.expiresAt !== undefined && at >= found.expiresAt) data.sessions.delete(id);
    }
  };

  const store: Store = {
    specificationVersion: STORE_SPECIFICATION_VERSION,
    capabilities: Object.freeze({ ttl: true, multiProcess: false, durable: false }),
    namespace,

    append: run((sessionId, messages, appendOptions) => {
      const at = begin(sessionId);
      const batch = parseCountedMessages(messages);
      const { idempotencyKey: key, userId } = parseAppendOptions(appendOptions);
      const state = stateFor(sessionId, at);
      assertSameUser(state, userId);
      const duplicate = findDuplicate(state, key);
      if (duplicate !== undefined) return duplicate;
      assertNewIds(state, batch);
      const result = appendToSession(state, batch, key, at);
      if (userId !== undefined) state.userId = userId;
      save(state, at);
      return result;
    }),

    read: run((sessionId, readOptions) => {
      const at = begin(sessionId);
      const range = parseReadOptions(readOptions);
      const found = entry(sessionId, at);
      const { version, epoch } = counters(found);
      if (found?.kind !== 'live') return { version, epoch, messages: [] };
      const { start, end } = selectSeqRange(found.state.active, range);
      return { version, epoch, messages: copyJsonValue(found.state.active.slice(start, end)) };
    }),

    info: run((sessionId) => {
      const state = live(sessionId, begin(sessionId));
      return state === undefined ? null : sessionInfo(state);
    }),

    compact: run((sessionId, input) => {
      const at = begin(sessionId);
      const checked = parseCompactInput(input);
      const state = stateFor(sessionId, at);
      if (state.epoch !== checked.expectedEpoch) {
        throw epochConflictError(sessionId, checked.expectedEpoch, state.epoch);
      }
      const result = compactSession(state, checked, at);
      save(state, at);
      return result;
    }),

    erase: run((sessionId, input) => {
      const at = begin(sessionId);
      const checked = parseEraseInput(input);
      const state = stateFor(sessionId, at);
      if (state.epoch !== checked.expectedEpoch) {
        throw epochConflictError(sessionId, checked.expectedEpoch, state.epoch);
      }
      const result = eraseSession(state, checked.throughSeq, at, checked.keepSeqs);
      save(state, at);
      return result;
    }),

    replace: run((sessionId, input) => {
      const at = begin(sessionId);
      const checked = parseReplaceInput(input);
      const state = stateFor(sessionId, at);
      if (checked.expectedVersion !== undefined && checked.expectedVersion !== state.version) {
        throw versionConflictError(sessionId, checked.expectedVersion, state.version);
      }
      const result = replaceSession(state, checked.messages, at);
      save(state, at);
      return result;
    }),

    flush: run((sessionId, input) => {
      const at = begin(sessionId);
      const { expectedEpoch } = parseFlushInput(input);
      const found = entry(sessionId, at);
      const { version, epoch } = counters(found);
      if (epoch !== expectedEpoch) throw epochConflictError(sessionId, expectedEpoch, epoch);
      if (found?.kind !== 'live')
        return { version, epoch, droppedMessages: 0, droppedSummaries: 0 };
      const result = flushSession(found.state, at);
      if (result.droppedMessages + result.droppedSummaries > 0) save(found.state, at);
      return result;
    }),

    pop: run((sessionId) => {
      const at = begin(sessionId);
      const found = entry(sessionId, at);
      if (found?.kind !== 'live') return { ...counterPair(counters(found)), message: null };
      const result = popNewest(found.state, at);
      if (result.message === null) return result;
      save(found.state, at);
      return { ...result, message: copyJsonValue(result.message) };
    }),

    clear: run((sessionId) => {
      const at = begin(sessionId);
      const state = live(sessionId, at);
      if (state === undefined) return false;
      clearLive(state, at);
      return true;
    }),

    summaries: run((sessionId) => {
      const state = live(sessionId, begin(sessionId));
      return state === undefined ? [] : copyJsonValue([...state.summaries.values()]);
    }),

    archived: run((sessionId, summaryId) => {
      const state = live(sessionId, begin(sessionId));
      return copyJsonValue(state?.archive.get(summaryId) ?? []);
    }),

    list: run((listOptions) => {
      const { cursor, limit = DEFAULT_LIST_LIMIT, userId } = parseListOptions(listOptions);
      const after = cursor === undefined ? undefined : decodeListCursor(cursor);
      assertOpen();
      const at = now();
      const listed = (id: string) => {
        const state = live(id, at);
        return state !== undefined && (userId === undefined || state.userId === userId);
      };
      const ids = [...data.sessions.keys()].filter(listed).sort();
      const start = after === undefined ? 0 : indexAfterId(ids, after);
      const sessionIds = ids.slice(start, start + limit);
      const last = sessionIds[sessionIds.length - 1];
      return start + limit < ids.length && last !== undefined
        ? { sessionIds, cursor: encodeListCursor(last) }
        : { sessionIds };
    }),

    export: run((sessionId) => {
      const state = live(sessionId, begin(sessionId));
      return state === undefined ? null : copyJsonValue(snapshotOf(state));
    }),

    import: run((snapshot) => {
      begin((snapshot as { sessionId?: unknown } | null)?.sessionId);
      const checked = parseSessionSnapshot(snapshot);
      const at = now();
      save(stateFromSnapshot(checked), at);
    }),

    userFacts: run((userId) => {
      beginUser(userId);
      return readUserFacts(data, userId);
    }),

    writeUserFacts: run((userId, input) => {
      beginUser(userId);
      return writeUserFacts(data, userId, parseUserFactsWrite(input));
    }),

    forgetUser: run((userId) => {
      beginUser(userId);
      const at = now();
      let sessions = 0;
      let messages = 0;
      for (const id of [...data.sessions.keys()]) {
        const state = live(id, at);
        if (state === undefined || state.userId !== userId) continue;
        sessions += 1;
        messages += storedMessageCount(state);
        clearLive(state, at);
      }
      return { sessions, messages, facts: deleteUserFacts(data, userId) };
    }),

    close: run(() => {
      closed = true;
    }),
  };
  return store;
}

function counterPair({ version, epoch }: SessionCounters): { version: number; epoch: number } {
  return { version, epoch };
}

/** Wraps a synchronous operation as the async method the spec declares; throws become rejections. */
function run<A extends unknown[], R>(operation: (...args: A) => R): (...args: A) => Promise<R> {
  return (...args) => {
    try {
      return Promise.resolve(operation(...args));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
