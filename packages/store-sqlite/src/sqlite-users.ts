import { MemStoreError } from '@mem/core';
import {
  assertValidUserId,
  type ForgetUserResult,
  parseUserFactsWrite,
  type Store,
  type UserFact,
  type UserFacts,
  userFactsConflictError,
} from '@mem/core/backend';
import type { Connection } from './connection.ts';
import type { Statements } from './statements.ts';
import type { UserFactsRow, UserSessionRow } from './user-statements.ts';

/**
 * `forgetUser` removes at most this many sessions per transaction (and stops a batch early once
 * it has removed `FORGET_BATCH_MESSAGES` messages), then lets other work run before the next:
 * forgetting a user with thousands of sessions never holds the write lock for long.
 */
export const FORGET_BATCH_SESSIONS = 100;
export const FORGET_BATCH_MESSAGES = 10_000;

interface UserContext {
  connection: Connection<Statements>;
  namespace: string;
  now: () => number;
  assertOpen: () => void;
}

type UserMethods = Pick<Store, 'userFacts' | 'writeUserFacts' | 'forgetUser'>;

/**
 * The Store v3 methods of users' facts and of forgetting a user, for `createSqliteStore`.
 *
 * - Facts are one JSON array per (namespace, user) in `mem_user_facts`; `writeUserFacts` reads
 *   the version and writes in one IMMEDIATE transaction, so of two writers that read the same
 *   version exactly one wins. An empty write keeps a row with no facts (a tombstone), so the
 *   version keeps growing and a writer that read before the removal still conflicts; only
 *   `forgetUser` deletes the row (nothing of the user stays), and the version starts at 0 again.
 * - `forgetUser` removes the user's sessions in batches, each one IMMEDIATE transaction that
 *   re-selects the sessions still bound to the user (so each session goes whole, and a run
 *   killed half-way leaves whole sessions behind, which the next run removes), then the facts
 *   in the last batch. One transaction for everything would be atomic, but would hold the
 *   write lock (and block every other writer of the file) for as long as it takes to delete all
 *   of a user's rows; batches keep each hold short and make the work resumable anyway.
 */
export function userMethods(context: UserContext): UserMethods {
  const { connection, namespace, now, assertOpen } = context;
  return {
    userFacts: async (userId) => {
      assertValidUserId(userId);
      assertOpen();
      return connection.read((st) => factsOf(st.users.facts.get(namespace, userId), userId));
    },

    writeUserFacts: async (userId, input) => {
      assertValidUserId(userId);
      const { expectedVersion, facts } = parseUserFactsWrite(input);
      assertOpen();
      return connection.write((st) => {
        const stored = st.users.facts.get(namespace, userId)?.version ?? 0;
        if (expectedVersion !== stored) {
          throw userFactsConflictError(userId, expectedVersion, stored);
        }
        const version = stored + 1;
        st.users.saveFacts.run(namespace, userId, version, JSON.stringify(facts), now());
        return { version };
      });
    },

    forgetUser: async (userId) => {
      assertValidUserId(userId);
      assertOpen();
      const total: ForgetUserResult = { sessions: 0, messages: 0, facts: 0 };
      for (;;) {
        const batch = await connection.write((st) => forgetBatch(st, namespace, userId, now()));
        total.sessions += batch.sessions;
        total.messages += batch.messages;
        total.facts += batch.facts;
        if (batch.done) return total;
        // Let other writers (this process's and others') take the lock between batches.
        await new Promise<void>((resolve) => setImmediate(resolve));
        assertOpen();
      }
    },
  };
}

/**
 * One batch of `forgetUser`, inside its transaction: removes whole sessions of the user (with
 * every row linked to them) up to the batch limits; when none are left, the facts too.
 */
function forgetBatch(
  st: Statements,
  namespace: string,
  userId: string,
  at: number,
): ForgetUserResult & { done: boolean } {
  const rows = st.users.sessions.all(namespace, userId, FORGET_BATCH_SESSIONS);
  let sessions = 0;
  let messages = 0;
  let removed = 0;
  for (const row of rows) {
    if (removed > 0 && messages >= FORGET_BATCH_MESSAGES) break;
    if (isLive(row, at)) {
      sessions += 1;
      messages += row.message_count + row.archived;
    }
    st.deleteData.run(row.id);
    st.deleteSession.run(row.id);
    removed += 1;
  }
  if (removed < rows.length || rows.length === FORGET_BATCH_SESSIONS) {
    return { sessions, messages, facts: 0, done: false };
  }
  const factsRow = st.users.facts.get(namespace, userId);
  const facts = factsRow === undefined ? 0 : factCount(factsRow.facts);
  st.users.deleteFacts.run(namespace, userId);
  return { sessions, messages, facts, done: true };
}

/** A session that reads as present: not cleared, not expired. (Both kinds go all the same.) */
function isLive(row: UserSessionRow, at: number): boolean {
  return row.live === 1 && (row.expires_at === null || at < row.expires_at);
}

function factCount(json: string): number {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.length : 0;
  } catch {
    return 0;
  }
}

/** The stored facts as `UserFacts`, checked like every row read back. */
function factsOf(row: UserFactsRow | undefined, userId: string): UserFacts {
  if (row === undefined) return { userId, version: 0, facts: [] };
  const { version, facts: json } = row;
  let facts: unknown;
  try {
    facts = JSON.parse(json);
  } catch (error) {
    throw corruptFacts(userId, error);
  }
  if (!Array.isArray(facts) || !facts.every(isFactShape)) throw corruptFacts(userId);
  return { userId, version, facts: facts as UserFact[] };
}

/** A cheap structural check (every fact was checked with core's parser when it was written). */
function isFactShape(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const fact = value as Record<string, unknown>;
  return (
    typeof fact.id === 'string' &&
    typeof fact.text === 'string' &&
    Array.isArray(fact.sourceMessageIds) &&
    typeof fact.createdAt === 'number' &&
    typeof fact.updatedAt === 'number'
  );
}

function corruptFacts(userId: string, cause?: unknown): MemStoreError {
  return new MemStoreError(
    `[mem/sqlite] the facts of user ${JSON.stringify(userId)} read back from the database are corrupt (not what this store writes); write them again with writeUserFacts, or remove them with forgetUser.`,
    cause === undefined ? {} : { cause },
  );
}
