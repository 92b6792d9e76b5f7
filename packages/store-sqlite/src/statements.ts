import type { Database } from 'better-sqlite3';

/** The part of a better-sqlite3 statement the store uses, with named parameters. */
export interface Prepared<R> {
  run(params: object): unknown;
  get(params: object): R | undefined;
  all(params: object): R[];
}

/** A row of `mem_sessions`. */
export interface SessionRow {
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

/** `@ns` and `@sid` bind every statement to one session of one namespace. */
export interface SessionKey {
  ns: string;
  sid: string;
}

const WHERE = 'namespace = @ns AND session_id = @sid';
const ALL_TABLES = ['mem_messages', 'mem_archive', 'mem_summaries', 'mem_idempotency'] as const;

/**
 * Every SQL statement the store runs, prepared once per connection. Values are always bound
 * parameters; no caller-supplied text is ever part of the SQL.
 */
export function prepareStatements(db: Database) {
  const p = <R = unknown>(sql: string): Prepared<R> => db.prepare<unknown[], R>(sql);
  const deleteData = ALL_TABLES.map((table) => p(`DELETE FROM ${table} WHERE ${WHERE}`));
  const deleteHistory = deleteData.slice(0, 3);
  const deleteExpiredData = ALL_TABLES.map((table) =>
    p(
      `DELETE FROM ${table} WHERE namespace = @ns AND session_id IN (SELECT session_id FROM mem_sessions WHERE namespace = @ns AND expires_at IS NOT NULL AND expires_at <= @at)`,
    ),
  );
  const deleteExpiredSessions = p(
    'DELETE FROM mem_sessions WHERE namespace = @ns AND expires_at IS NOT NULL AND expires_at <= @at',
  );
  return {
    session: p<SessionRow>(`SELECT * FROM mem_sessions WHERE ${WHERE}`),
    upsertSession: p(
      `INSERT INTO mem_sessions (namespace, session_id, sort_key, live, version, epoch, last_seq, message_count, token_count, created_at, updated_at, expires_at)
       VALUES (@ns, @sid, @sortKey, @live, @version, @epoch, @lastSeq, @messageCount, @tokenCount, @createdAt, @updatedAt, @expiresAt)
       ON CONFLICT (namespace, session_id) DO UPDATE SET live = excluded.live, version = excluded.version,
         epoch = excluded.epoch, last_seq = excluded.last_seq, message_count = excluded.message_count,
         token_count = excluded.token_count, created_at = excluded.created_at,
         updated_at = excluded.updated_at, expires_at = excluded.expires_at`,
    ),
    deleteSession: p(`DELETE FROM mem_sessions WHERE ${WHERE}`),
    /** Everything but the session row (and so its counters). */
    deleteData: {
      run: (key: SessionKey) => {
        for (const statement of deleteData) statement.run(key);
      },
    },
    /** Active messages, archive and summaries; the idempotency keys stay (FLUSH keeps them). */
    deleteHistory: {
      run: (key: SessionKey) => {
        for (const statement of deleteHistory) statement.run(key);
      },
    },
    deleteExpired: {
      run: (params: { ns: string; at: number }) => {
        for (const statement of deleteExpiredData) statement.run(params);
        deleteExpiredSessions.run(params);
      },
    },
    listLive: p<{ session_id: string }>(
      `SELECT session_id FROM mem_sessions WHERE namespace = @ns AND live = 1
         AND (expires_at IS NULL OR expires_at > @at) AND sort_key > @after
       ORDER BY sort_key LIMIT @limit`,
    ),
    readAscending: p<MessageRow>(
      `SELECT seq, id, token_count, json FROM mem_messages
       WHERE ${WHERE} AND seq > @after AND seq < @before ORDER BY seq LIMIT @limit`,
    ),
    readDescending: p<MessageRow>(
      `SELECT seq, id, token_count, json FROM mem_messages
       WHERE ${WHERE} AND seq > @after AND seq < @before ORDER BY seq DESC LIMIT @limit`,
    ),
    seqBounds: p<{ first: number | null; last: number | null }>(
      `SELECT min(seq) AS first, max(seq) AS last FROM mem_messages WHERE ${WHERE}`,
    ),
    insertMessage: p(
      `INSERT INTO mem_messages (namespace, session_id, seq, id, token_count, json)
       VALUES (@ns, @sid, @seq, @id, @tokenCount, @json)`,
    ),
    deleteMessage: p(`DELETE FROM mem_messages WHERE ${WHERE} AND seq = @seq`),
    idUsed: p<{ found: number }>(
      `SELECT EXISTS (SELECT 1 FROM mem_messages WHERE ${WHERE} AND id = @id)
           OR EXISTS (SELECT 1 FROM mem_archive WHERE ${WHERE} AND id = @id) AS found`,
    ),
    insertArchived: p(
      `INSERT INTO mem_archive (namespace, session_id, summary_id, seq, id, json)
       VALUES (@ns, @sid, @summaryId, @seq, @id, @json)`,
    ),
    archived: p<{ seq: number; id: string; json: string }>(
      `SELECT seq, id, json FROM mem_archive WHERE ${WHERE} AND summary_id = @summaryId ORDER BY rowid`,
    ),
    deleteArchived: p(`DELETE FROM mem_archive WHERE ${WHERE} AND summary_id = @summaryId`),
    summaries: p<{ summary_id: string; json: string }>(
      `SELECT summary_id, json FROM mem_summaries WHERE ${WHERE} ORDER BY rowid`,
    ),
    hasSummary: p<{ found: number }>(
      `SELECT EXISTS (SELECT 1 FROM mem_summaries WHERE ${WHERE} AND summary_id = @summaryId) AS found`,
    ),
    insertSummary: p(
      `INSERT INTO mem_summaries (namespace, session_id, summary_id, json) VALUES (@ns, @sid, @summaryId, @json)`,
    ),
    deleteSummary: p(`DELETE FROM mem_summaries WHERE ${WHERE} AND summary_id = @summaryId`),
    idempotencyKey: p<IdempotencyRow>(
      `SELECT key, version, epoch, first_seq, last_seq FROM mem_idempotency WHERE ${WHERE} AND key = @key`,
    ),
    idempotencyKeys: p<IdempotencyRow>(
      // The newest 1,024 (trimming is amortized, so a few more may still be stored).
      `SELECT key, version, epoch, first_seq, last_seq FROM (
         SELECT rowid AS r, key, version, epoch, first_seq, last_seq FROM mem_idempotency
         WHERE ${WHERE} ORDER BY rowid DESC LIMIT 1024) ORDER BY r`,
    ),
    insertIdempotencyKey: p(
      `INSERT INTO mem_idempotency (namespace, session_id, key, version, epoch, first_seq, last_seq)
       VALUES (@ns, @sid, @key, @version, @epoch, @firstSeq, @lastSeq)`,
    ),
    trimIdempotencyKeys: p(
      `DELETE FROM mem_idempotency WHERE rowid IN (SELECT rowid FROM mem_idempotency
         WHERE ${WHERE} ORDER BY rowid DESC LIMIT -1 OFFSET @keep)`,
    ),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
