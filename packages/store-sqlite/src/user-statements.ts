import type { Prepared } from './prepared-statement.ts';

/** A session of a user as `forgetUser` sees it. */
export interface UserSessionRow {
  id: number;
  session_id: string;
  live: number;
  message_count: number;
  expires_at: number | null;
  /** Archived messages of the session. */
  archived: number;
}

/** A row of `mem_user_facts`: `facts` is the JSON array of facts (`'[]'` for a tombstone). */
export interface UserFactsRow {
  version: number;
  facts: string;
}

/** The statements of users' facts and of forgetting a user (values always bound). */
export function prepareUserStatements(p: <R = unknown>(sql: string) => Prepared<R>) {
  return {
    /** namespace, user_id, limit: the user's sessions, in list order. */
    sessions: p<UserSessionRow>(
      `SELECT id, session_id, live, message_count, expires_at,
         (SELECT count(*) FROM mem_archive WHERE session = mem_sessions.id) AS archived
       FROM mem_sessions WHERE namespace = ? AND user_id = ? ORDER BY sort_key LIMIT ?`,
    ),
    /** namespace, user_id */
    facts: p<UserFactsRow>(
      'SELECT version, facts FROM mem_user_facts WHERE namespace = ? AND user_id = ?',
    ),
    /** namespace, user_id, version, facts (JSON), updated_at */
    saveFacts: p(
      `INSERT INTO mem_user_facts (namespace, user_id, version, facts, updated_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (namespace, user_id) DO UPDATE SET
         version = excluded.version, facts = excluded.facts, updated_at = excluded.updated_at`,
    ),
    /** namespace, user_id */
    deleteFacts: p('DELETE FROM mem_user_facts WHERE namespace = ? AND user_id = ?'),
  };
}
