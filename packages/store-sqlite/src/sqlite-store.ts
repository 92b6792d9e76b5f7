import { MemStoreError } from '@mem/core';
import {
  assertValidSessionId,
  decodeListCursor,
  encodeListCursor,
  encodeMessageBatch,
  epochConflictError,
  parseCompactInput,
  parseEraseInput,
  parseFlushInput,
  parseListOptions,
  parseReadOptions,
  parseReplaceInput,
  parseSessionSnapshot,
  type ReadResult,
  readAppendOptions,
  STORE_SPECIFICATION_VERSION,
  type Store,
  versionConflictError,
} from '@mem/core/backend';
import { type ChangeMark, connect } from './connection.ts';
import { recordOf, storedOf } from './decode-rows.ts';
import { sortKey } from './sort-key.ts';
import {
  compactSession,
  eraseSession,
  flushSession,
  popNewest,
  replaceSession,
} from './sqlite-rewrite.ts';
import {
  appendMessages,
  headOf,
  infoOf,
  isExpired,
  type SessionHead,
  saveHead,
  userToBind,
} from './sqlite-session.ts';
import { importSnapshot, snapshotOf } from './sqlite-snapshot.ts';
import { checkSqliteStoreOptions, type SqliteStoreOptions } from './sqlite-store-options.ts';
import { userMethods } from './sqlite-users.ts';
import {
  prepareStatements,
  type SessionRef,
  type SessionRow,
  type Statements,
} from './statements.ts';

const DEFAULT_LIST_LIMIT = 100;
const NO_UPPER_BOUND = Number.MAX_SAFE_INTEGER;
/** Sessions whose last seen row a store keeps (then it forgets them all and starts again). */
const MAX_SEEN_HEADS = 1024;

/** A session row as a read or an append of this store saw it, and the change mark then. */
interface SeenHead {
  version: number;
  epoch: number;
  lastSeq: number;
  expiresAt: number | null;
  mark: ChangeMark;
}

/** A session id and its `sort_key`, which finds its row (with the store's namespace). */
interface SessionKey {
  sid: string;
  sortKey: Buffer;
}

/**
 * A `Store` (spec `mem.store.v3`) on SQLite through better-sqlite3, with the in-memory store's
 * semantics exactly (same validation, errors and counters; `@mem/store-test-suite` checks it).
 *
 * - Connects lazily on first use: PRAGMAs (WAL for files, busy timeout, foreign keys,
 *   synchronous), then schema migrations by `user_version` (neither when `readonly`).
 * - Every operation is one transaction; writes are `BEGIN IMMEDIATE`, so writers in several
 *   processes serialize on SQLite's write lock and a failing call changes nothing. A call that
 *   finds the lock held waits for it on timers, up to `busyTimeoutMs` (see `connection.ts`).
 * - Rows read back are checked (`decode-rows.ts`); a file deleted or replaced while open fails
 *   every later call (`database-file.ts`).
 * - Every statement is prepared on its first use, once per connection; values are bound, never
 *   part of SQL text.
 * - Tail reads (`from: 'end'` + `limit`) walk the `(session, seq)` key backwards:
 *   O(limit), whatever the session's length.
 * - `flush` checks the epoch and deletes the session's archive and summary rows in one IMMEDIATE
 *   transaction; active rows are not touched.
 * - `pop` reads the newest row and deletes it in the same IMMEDIATE transaction, so no append
 *   can slip in between.
 * - `clear` keeps the counters (a row with `live = 0`) until the TTL ends; expired sessions read
 *   as absent and are deleted on the next write to them, or by a sweep (at most once per `ttlMs`).
 * - `close()` closes a connection the store opened (`path`), or with `reuseConnection` leaves it
 *   idle for the next store this process opens on the file; a `database` given by the caller
 *   stays open.
 */
export function createSqliteStore(options: SqliteStoreOptions): Store {
  const checked = checkSqliteStoreOptions(options);
  const { namespace, ttlMs, now, source } = checked;
  const inMemory = source.kind === 'path' ? source.path === ':memory:' : source.database.memory;
  const connection = connect(checked, 'createSqliteStore', prepareStatements);
  let closed = false;
  let lastSweepAt = Number.NEGATIVE_INFINITY;

  const assertOpen = (): void => {
    if (closed) {
      throw new MemStoreError(
        '[mem/sqlite] this store is closed; create a new one with createSqliteStore().',
      );
    }
  };
  /** Checks the id and that the store is open. The clock is read in the transaction. */
  const begin = (sessionId: unknown): void => {
    assertValidSessionId(sessionId);
    assertOpen();
  };
  /** Where a session's row is: its namespace and sort key (the id as UTF-16BE, unique). */
  let located: SessionKey = { sid: '', sortKey: Buffer.alloc(0) };
  const locate = (sid: string): SessionKey => {
    // Calls tend to repeat one session: reuse its key (never mutated, only bound).
    if (located.sid !== sid) located = { sid, sortKey: sortKey(sid) };
    return located;
  };
  const expiry = (at: number) => (ttlMs === undefined ? null : at + ttlMs);
  /**
   * What this store last saw of a session's row, and when (a change mark). A catch-up read
   * (`afterSeq` only) at or past the session's `last_seq` with nothing committed to the database
   * since is answered from it without a transaction: the engine's `context()` after its own
   * `append`, the usual case, costs one `PRAGMA data_version` instead of a read.
   */
  const heads = new Map<string, SeenHead>();
  const remember = (sid: string, head: SeenHead): void => {
    if (heads.size >= MAX_SEEN_HEADS && !heads.has(sid)) heads.clear();
    heads.set(sid, head);
  };
  /** The answer to a catch-up read from what was seen, when nothing can have changed since. */
  const caughtUp = (sid: string, afterSeq: number): ReadResult | undefined => {
    const head = heads.get(sid);
    if (head === undefined || head.lastSeq > afterSeq) return undefined;
    if (head.expiresAt !== null && now() >= head.expiresAt) return undefined;
    if (!connection.unchanged(head.mark)) {
      heads.delete(sid);
      return undefined;
    }
    return { version: head.version, epoch: head.epoch, messages: [] };
  };
  /** The session row as a read sees it: undefined when absent or expired. */
  const rowFor = (st: Statements, key: SessionKey, at: number): SessionRow | undefined => {
    const row = st.session.get(namespace, key.sortKey);
    return isExpired(row, at) ? undefined : row;
  };
  const liveRow = (st: Statements, key: SessionKey, at: number) => {
    const row = rowFor(st, key, at);
    return row?.live === 1 ? row : undefined;
  };
  /** The session row as a write sees it: an expired session is deleted first. */
  const rowForWrite = (st: Statements, key: SessionKey, at: number) => {
    const row = st.session.get(namespace, key.sortKey);
    if (!isExpired(row, at)) return row;
    const id = (row as SessionRow).id;
    st.deleteData.run(id);
    st.deleteSession.run(id);
    return undefined;
  };
  /** The session a write changes: its row, created (blank) when absent; `saveHead` fills it. */
  const refForWrite = (st: Statements, key: SessionKey, row: SessionRow | undefined) => {
    const id =
      row?.id ?? (st.insertSession.get(namespace, key.sid, key.sortKey) as { id: number }).id;
    return { id, sid: key.sid };
  };
  const refOf = (key: SessionKey, row: SessionRow): SessionRef => ({ id: row.id, sid: key.sid });
  const sweep = (st: Statements, at: number): void => {
    if (ttlMs === undefined || at - lastSweepAt < ttlMs) return;
    lastSweepAt = at;
    st.deleteExpired.run({ ns: namespace, at });
  };
  /**
   * The write path of compact, erase and replace, in one IMMEDIATE transaction: `check` sees the
   * session head (and throws on a conflict) and returns the rewrite, which runs before the head
   * is saved.
   */
  const rewrite = <R>(
    sessionId: string,
    check: (head: SessionHead) => (st: Statements, ref: SessionRef, at: number) => R,
  ): Promise<R> => {
    const key = locate(sessionId);
    return connection.write((st) => {
      const at = now();
      const row = rowForWrite(st, key, at);
      const head = headOf(row, at);
      const apply = check(head);
      const ref = refForWrite(st, key, row);
      const result = apply(st, ref, at);
      saveHead(st, ref, head, expiry(at));
      sweep(st, at);
      return result;
    });
  };

  return {
    specificationVersion: STORE_SPECIFICATION_VERSION,
    capabilities: Object.freeze({ ttl: true, multiProcess: !inMemory, durable: !inMemory }),
    namespace,

    append: run((sessionId, messages, appendOptions) => {
      begin(sessionId);
      const batch = encodeMessageBatch(messages);
      const { idempotencyKey, userId } = readAppendOptions(appendOptions);
      const key = locate(sessionId);
      let expiresAt: number | null = null;
      return connection.write(
        (st) => {
          const at = now();
          const row = rowForWrite(st, key, at);
          // Checked first: a session of another user gets nothing, not even a duplicate's answer.
          const bind = userToBind(row, key.sid, userId);
          const head = headOf(row, at);
          const ref = refForWrite(st, key, row);
          const archive = row?.archived === 1;
          const result = appendMessages(st, ref, head, archive, batch, idempotencyKey, at);
          if (result.duplicate) return result;
          if (bind !== undefined) st.bindUser.run(bind, ref.id);
          expiresAt = expiry(at);
          saveHead(st, ref, head, expiresAt);
          sweep(st, at);
          return result;
        },
        (result, mark) => {
          if (result.duplicate) return;
          const { version, epoch, lastSeq } = result;
          remember(key.sid, { version, epoch, lastSeq, expiresAt, mark });
        },
      );
    }),

    read: run((sessionId, readOptions) => {
      begin(sessionId);
      const range = parseReadOptions(readOptions);
      const catchUp =
        range.afterSeq !== undefined && range.beforeSeq === undefined && range.limit === undefined;
      if (catchUp) {
        const seen = caughtUp(sessionId, range.afterSeq as number);
        if (seen !== undefined) return seen;
      }
      const key = locate(sessionId);
      const mark = connection.mark();
      return connection.read((st) => {
        const row = rowFor(st, key, now());
        const version = row?.version ?? 0;
        const epoch = row?.epoch ?? 0;
        if (row !== undefined) {
          const { last_seq: lastSeq, expires_at: expiresAt } = row;
          remember(key.sid, { version, epoch, lastSeq, expiresAt, mark });
        }
        if (row?.live !== 1) return { version, epoch, messages: [] };
        const params = {
          s: row.id,
          after: range.afterSeq ?? 0,
          before: range.beforeSeq ?? NO_UPPER_BOUND,
          limit: range.limit ?? -1,
        };
        const rows =
          range.from === 'end' && range.limit !== undefined
            ? st.readJsonDescending.all(params).reverse()
            : st.readJsonAscending.all(params);
        return { version, epoch, messages: rows.map((r) => storedOf(r, key.sid)) };
      });
    }),

    info: run((sessionId) => {
      begin(sessionId);
      const key = locate(sessionId);
      return connection.read((st) => {
        const row = liveRow(st, key, now());
        return row === undefined ? null : infoOf(sessionId, row);
      });
    }),

    compact: run((sessionId, input) => {
      begin(sessionId);
      const parsed = parseCompactInput(input);
      return rewrite(sessionId, (head) => {
        if (head.epoch !== parsed.expectedEpoch) {
          throw epochConflictError(sessionId, parsed.expectedEpoch, head.epoch);
        }
        return (st, ref, at) => compactSession(st, ref, head, parsed, at);
      });
    }),

    erase: run((sessionId, input) => {
      begin(sessionId);
      const parsed = parseEraseInput(input);
      return rewrite(sessionId, (head) => {
        if (head.epoch !== parsed.expectedEpoch) {
          throw epochConflictError(sessionId, parsed.expectedEpoch, head.epoch);
        }
        return (st, ref, at) => eraseSession(st, ref, head, parsed.throughSeq, at, parsed.keepSeqs);
      });
    }),

    replace: run((sessionId, input) => {
      begin(sessionId);
      const parsed = parseReplaceInput(input);
      return rewrite(sessionId, (head) => {
        if (parsed.expectedVersion !== undefined && parsed.expectedVersion !== head.version) {
          throw versionConflictError(sessionId, parsed.expectedVersion, head.version);
        }
        return (st, ref, at) => replaceSession(st, ref, head, parsed.messages, at);
      });
    }),

    flush: run((sessionId, input) => {
      begin(sessionId);
      const { expectedEpoch } = parseFlushInput(input);
      const key = locate(sessionId);
      return connection.write((st) => {
        const at = now();
        const row = rowForWrite(st, key, at);
        const head = headOf(row, at);
        if (head.epoch !== expectedEpoch) {
          throw epochConflictError(sessionId, expectedEpoch, head.epoch);
        }
        const none = { droppedMessages: 0, droppedSummaries: 0 };
        if (row?.live !== 1) return { version: head.version, epoch: head.epoch, ...none };
        const ref = refOf(key, row);
        const flushed = flushSession(st, ref, head, at);
        if (flushed.droppedMessages + flushed.droppedSummaries === 0) return flushed;
        saveHead(st, ref, head, expiry(at));
        sweep(st, at);
        return flushed;
      });
    }),

    pop: run((sessionId) => {
      begin(sessionId);
      const key = locate(sessionId);
      return connection.write((st) => {
        const at = now();
        const row = rowForWrite(st, key, at);
        const head = headOf(row, at);
        if (row?.live !== 1) return { version: head.version, epoch: head.epoch, message: null };
        const ref = refOf(key, row);
        const popped = popNewest(st, ref, head, at);
        if (popped.message === null) return popped;
        saveHead(st, ref, head, expiry(at));
        sweep(st, at);
        return popped;
      });
    }),

    clear: run((sessionId) => {
      begin(sessionId);
      const key = locate(sessionId);
      return connection.write((st) => {
        const at = now();
        const row = rowForWrite(st, key, at);
        if (row?.live !== 1) return false;
        const ref = refOf(key, row);
        st.deleteData.run(ref.id);
        st.bindUser.run(null, ref.id);
        const head = headOf(row, at);
        const left = { ...head, version: head.version + 1, epoch: head.epoch + 1 };
        saveHead(st, ref, { ...left, messageCount: 0, tokenCount: 0 }, expiry(at), false);
        sweep(st, at);
        return true;
      });
    }),

    summaries: run((sessionId) => {
      begin(sessionId);
      const key = locate(sessionId);
      return connection.read((st) => {
        const row = liveRow(st, key, now());
        return row === undefined
          ? []
          : st.summaries.all(row.id).map((r) => recordOf(r.json, key.sid));
      });
    }),

    archived: run((sessionId, summaryId) => {
      begin(sessionId);
      const key = locate(sessionId);
      return connection.read((st) => {
        const row = liveRow(st, key, now());
        // An ill-formed id names no summary (compact refuses one). better-sqlite3 13 binds it
        // with U+FFFD for the lone surrogate, so it must not reach the query.
        return row === undefined || typeof summaryId !== 'string' || !summaryId.isWellFormed()
          ? []
          : st.archived.all({ s: row.id, summaryId }).map((r) => storedOf(r, key.sid));
      });
    }),

    list: run((listOptions) => {
      const { cursor, limit = DEFAULT_LIST_LIMIT, userId } = parseListOptions(listOptions);
      const after = cursor === undefined ? undefined : decodeListCursor(cursor);
      assertOpen();
      return connection.read((st) => {
        const params = {
          ns: namespace,
          at: now(),
          after: after === undefined ? Buffer.alloc(0) : sortKey(after),
          limit: limit + 1,
        };
        const rows =
          userId === undefined
            ? st.listLive.all(params)
            : st.listLiveOfUser.all({ ...params, user: userId });
        const sessionIds = rows.slice(0, limit).map((r) => r.session_id);
        const last = sessionIds[sessionIds.length - 1];
        return rows.length > limit && last !== undefined
          ? { sessionIds, cursor: encodeListCursor(last) }
          : { sessionIds };
      });
    }),

    export: run((sessionId) => {
      begin(sessionId);
      const key = locate(sessionId);
      return connection.read((st) => {
        const row = liveRow(st, key, now());
        return row === undefined ? null : snapshotOf(st, refOf(key, row), row);
      });
    }),

    import: run((snapshot) => {
      begin((snapshot as { sessionId?: unknown } | null)?.sessionId);
      const parsed = parseSessionSnapshot(snapshot);
      const key = locate(parsed.sessionId);
      return connection.write((st) => {
        const at = now();
        // Replaces whatever had the id, expired or not: the row (and its id) is reused.
        const ref = refForWrite(st, key, st.session.get(namespace, key.sortKey));
        importSnapshot(st, ref, parsed, expiry(at));
        sweep(st, at);
      });
    }),

    ...userMethods({ connection, namespace, now, assertOpen }),

    close: run(() => {
      if (closed) return;
      closed = true;
      connection.close();
    }),
  };
}

/** Wraps an operation as the async method the spec declares; throws become rejections. */
function run<A extends unknown[], R>(
  operation: (...args: A) => R | Promise<R>,
): (...args: A) => Promise<R> {
  return (...args) => {
    try {
      return Promise.resolve(operation(...args));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
