import type { Database } from 'better-sqlite3';
import { lazy, type Prepared } from './prepared-statement.ts';
import { prepareUserStatements } from './user-statements.ts';

/** A row of `mem_sessions`. */
export interface SessionRow {
  id: number;
  session_id: string;
  live: number;
  version: number;
  epoch: number;
  last_seq: number;
  message_count: number;
  token_count: number;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  /** The user the session belongs to (null: none). */
  user_id: string | null;
  /** 1 when the session has archived messages. */
  archived: number;
}

/** A message row as reads decode it. */
export interface JsonRow {
  seq: number;
  json: string;
}

export interface MessageRow {
  seq: number;
  id: string;
  token_count: number;
  json: string;
}

export interface IdempotencyRow {
  key: string;
  version: number;
  epoch: number;
  first_seq: number;
  last_seq: number;
}

/**
 * A session as the data statements see it: `id` is its `mem_sessions.id` (bound as `@s`), `sid`
 * the caller's session id (for error messages). Only valid inside the transaction that read it.
 */
export interface SessionRef {
  id: number;
  sid: string;
}

const INSERT_MESSAGES = 'INSERT INTO mem_messages (session, seq, id, token_count, json) VALUES';
const MESSAGE_VALUES = '(?, ?, ?, ?, ?)';
/** A session's active messages in a seq range, ordered by seq (append DESC for newest first). */
const MESSAGE_RANGE =
  'FROM mem_messages WHERE session = @s AND seq > @after AND seq < @before ORDER BY seq';
const LIMIT = 'LIMIT @limit';
const DATA_TABLES = ['mem_messages', 'mem_archive', 'mem_summaries', 'mem_idempotency'] as const;
const EXPIRED =
  'SELECT id FROM mem_sessions WHERE namespace = @ns AND expires_at IS NOT NULL AND expires_at <= @at';

/**
 * Every SQL statement the store runs, each prepared on first use and cached for the connection.
 * Values are always bound parameters; no caller-supplied text is ever part of the SQL. The
 * statements an append runs take positional parameters (no parameter object to build and look
 * up per call).
 */
export function prepareStatements(db: Database) {
  const p = <R = unknown>(sql: string): Prepared<R> => lazy<R>(db, sql);
  const deleteData = DATA_TABLES.map((table) => p(`DELETE FROM ${table} WHERE session = ?`));
  const deleteHistory = deleteData.slice(0, 3);
  const deleteExpiredData = DATA_TABLES.map((table) =>
    p(`DELETE FROM ${table} WHERE session IN (${EXPIRED})`),
  );
  const insertMessages: Prepared<never>[] = [];
  const deleteExpiredSessions = p(`DELETE FROM mem_sessions WHERE id IN (${EXPIRED})`);
  return {
    /** (namespace, sort key) → the session row. */
    session: p<SessionRow>(
      `SELECT id, session_id, live, version, epoch, last_seq, message_count, token_count,
         created_at, updated_at, expires_at, user_id,
         EXISTS (SELECT 1 FROM mem_archive WHERE session = mem_sessions.id) AS archived
       FROM mem_sessions WHERE namespace = ? AND sort_key = ?`,
    ),
    /** A new session row (its counters are written by `saveSession` before the commit). */
    insertSession: p<{ id: number }>(
      `INSERT INTO mem_sessions (namespace, session_id, sort_key, live, version, epoch, last_seq,
         message_count, token_count, created_at, updated_at, expires_at)
       VALUES (?, ?, ?, 0, 0, 0, 0, 0, 0, 0, 0, NULL) RETURNING id`,
    ),
    /** live, version, epoch, last_seq, message_count, token_count, created_at, updated_at, expires_at, id */
    saveSession: p(
      `UPDATE mem_sessions SET live = ?, version = ?, epoch = ?, last_seq = ?, message_count = ?,
         token_count = ?, created_at = ?, updated_at = ?, expires_at = ? WHERE id = ?`,
    ),
    deleteSession: p('DELETE FROM mem_sessions WHERE id = ?'),
    /** user_id (null: none), id */
    bindUser: p('UPDATE mem_sessions SET user_id = ? WHERE id = ?'),
    /** Everything but the session row (and so its counters). */
    deleteData: {
      run: (s: number) => {
        for (const statement of deleteData) statement.run(s);
      },
    },
    /** Active messages, archive and summaries; the idempotency keys stay (a replace keeps them). */
    deleteHistory: {
      run: (s: number) => {
        for (const statement of deleteHistory) statement.run(s);
      },
    },
    deleteExpired: {
      run: (params: { ns: string; at: number }) => {
        for (const statement of deleteExpiredData) statement.run(params);
        deleteExpiredSessions.run(params);
      },
    },
    listLive: p<{ session_id: string }>(
      `SELECT session_id FROM mem_sessions WHERE namespace = @ns AND sort_key > @after
         AND live = 1 AND (expires_at IS NULL OR expires_at > @at)
       ORDER BY sort_key LIMIT @limit`,
    ),
    /** listLive, only the sessions bound to `@user` (by the index on (namespace, user_id, sort_key)). */
    listLiveOfUser: p<{ session_id: string }>(
      `SELECT session_id FROM mem_sessions WHERE namespace = @ns AND user_id = @user
         AND sort_key > @after AND live = 1 AND (expires_at IS NULL OR expires_at > @at)
       ORDER BY sort_key LIMIT @limit`,
    ),
    users: prepareUserStatements(p),
    readAscending: p<MessageRow>(`SELECT seq, id, token_count, json ${MESSAGE_RANGE} ${LIMIT}`),
    readDescending: p<MessageRow>(
      `SELECT seq, id, token_count, json ${MESSAGE_RANGE} DESC ${LIMIT}`,
    ),
    /** What a read decodes (the seq and the stored JSON, which holds the id and count too). */
    readJsonAscending: p<JsonRow>(`SELECT seq, json ${MESSAGE_RANGE} ${LIMIT}`),
    readJsonDescending: p<JsonRow>(`SELECT seq, json ${MESSAGE_RANGE} DESC ${LIMIT}`),
    seqBounds: p<{ first: number | null; last: number | null }>(
      'SELECT min(seq) AS first, max(seq) AS last FROM mem_messages WHERE session = ?',
    ),
    /** session, seq, id, token_count, json */
    insertMessage: p(`${INSERT_MESSAGES} ${MESSAGE_VALUES}`),
    /**
     * `count` messages in one statement (one call into SQLite instead of `count`): parameters
     * are `count` groups of (session, seq, id, token_count, json). Prepared on first use.
     */
    insertMessages: (count: number): Prepared<never> => {
      let statement = insertMessages[count];
      if (statement === undefined) {
        statement = p(`${INSERT_MESSAGES} ${Array(count).fill(MESSAGE_VALUES).join(', ')}`);
        insertMessages[count] = statement;
      }
      return statement;
    },
    deleteMessage: p('DELETE FROM mem_messages WHERE session = ? AND seq = ?'),
    /** 1 when `@id` is used by an archived message or an active one with `seq <= @last`. */
    idUsed: p<{ found: number }>(
      `SELECT EXISTS (SELECT 1 FROM mem_messages WHERE session = @s AND id = @id AND seq <= @last)
           OR EXISTS (SELECT 1 FROM mem_archive WHERE session = @s AND id = @id) AS found`,
    ),
    /** session, JSON array of ids: 1 when an archived message has one of them. */
    anyArchived: p<{ found: number }>(
      `SELECT EXISTS (SELECT 1 FROM mem_archive
         WHERE session = ? AND id IN (SELECT value FROM json_each(?))) AS found`,
    ),
    insertArchived: p(
      `INSERT INTO mem_archive (session, summary_id, seq, id, json)
       VALUES (@s, @summaryId, @seq, @id, @json)`,
    ),
    archived: p<{ seq: number; id: string; json: string }>(
      'SELECT seq, id, json FROM mem_archive WHERE session = @s AND summary_id = @summaryId ORDER BY rowid',
    ),
    deleteArchived: p('DELETE FROM mem_archive WHERE session = @s AND summary_id = @summaryId'),
    /** session: every archived message of it (flush). */
    deleteWholeArchive: p('DELETE FROM mem_archive WHERE session = ?'),
    /** session: every summary record of it (flush). */
    deleteAllSummaries: p('DELETE FROM mem_summaries WHERE session = ?'),
    summaries: p<{ summary_id: string; json: string }>(
      'SELECT summary_id, json FROM mem_summaries WHERE session = ? ORDER BY rowid',
    ),
    hasSummary: p<{ found: number }>(
      'SELECT EXISTS (SELECT 1 FROM mem_summaries WHERE session = @s AND summary_id = @summaryId) AS found',
    ),
    insertSummary: p(
      'INSERT INTO mem_summaries (session, summary_id, json) VALUES (@s, @summaryId, @json)',
    ),
    deleteSummary: p('DELETE FROM mem_summaries WHERE session = @s AND summary_id = @summaryId'),
    /** session, key */
    idempotencyKey: p<IdempotencyRow>(
      `SELECT key, version, epoch, first_seq, last_seq FROM mem_idempotency
       WHERE session = ? AND key = ?`,
    ),
    idempotencyKeys: p<IdempotencyRow>(
      // The newest 1,024 (trimming is amortized, so a few more may still be stored).
      `SELECT key, version, epoch, first_seq, last_seq FROM (
         SELECT ord, key, version, epoch, first_seq, last_seq FROM mem_idempotency
         WHERE session = ? ORDER BY ord DESC LIMIT 1024) ORDER BY ord`,
    ),
    /** session, key, ord, version, epoch, first_seq, last_seq; changes nothing if the key is known. */
    insertIdempotencyKey: p(
      `INSERT INTO mem_idempotency (session, key, ord, version, epoch, first_seq, last_seq)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    /** Drops all but the newest `@keep` keys of session `@s`. */
    trimIdempotencyKeys: p(
      `DELETE FROM mem_idempotency WHERE session = @s AND ord < (
         SELECT ord FROM mem_idempotency WHERE session = @s ORDER BY ord DESC LIMIT 1 OFFSET @keep - 1)`,
    ),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
