import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@mem/core/backend';
import { createWordVectorEmbedder } from '@mem/core/testing';
import {
  conversation,
  knowledgeChunk,
  listAll,
  planCompaction,
  TEST_COLLECTION,
  uniqueId,
  userFact,
} from '@mem/store-test-suite';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.ts';
import { createSqliteKnowledgeBase } from './sqlite-knowledge-base.ts';
import { createSqliteStore } from './sqlite-store.ts';
import { FORGET_BATCH_SESSIONS } from './sqlite-users.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-users-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `users-${++files}.db`);

const opened: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});
function store(path: string): Store {
  const s = createSqliteStore({ path });
  opened.push(s);
  return s;
}
function raw(path: string, readonly = false): Database.Database {
  const db = new Database(path, { readonly });
  opened.push(db);
  return db;
}
const appendAs = (s: Store, sessionId: string, userId?: string, count = 2) =>
  s.append(sessionId, conversation(count), {
    idempotencyKey: uniqueId('key'),
    ...(userId === undefined ? {} : { userId }),
  });

/** The schema before users (version 4), as the shipped migrations built it. */
const BEFORE_USERS = 4;
/** Columns of each table at schema 4, as the previous version of this package wrote them. */
const SCHEMA_4_TABLES: Record<string, string> = {
  mem_sessions:
    'id, namespace, session_id, sort_key, live, version, epoch, last_seq, message_count, token_count, created_at, updated_at, expires_at',
  mem_messages: 'session, seq, id, token_count, json',
  mem_archive: 'session, summary_id, seq, id, json',
  mem_summaries: 'session, summary_id, json',
  mem_idempotency: 'session, key, ord, version, epoch, first_seq, last_seq',
  mem_kb_collections: 'id, namespace, collection_id',
  mem_kb_chunks: 'id, collection, session_id, chunk_id, created_at, json, summary_id',
};

/**
 * A schema 4 file (built by the shipped migrations 1-4) holding the rows of `source`: sessions
 * with messages, archives, summaries and keys, and knowledge chunks, none with a user.
 */
function schema4Copy(source: string): string {
  const path = freshFile();
  const db = new Database(path);
  for (const migration of MIGRATIONS.slice(0, BEFORE_USERS)) db.exec(migration);
  db.pragma(`user_version = ${BEFORE_USERS}`);
  db.prepare('ATTACH DATABASE ? AS source').run(source);
  for (const [table, columns] of Object.entries(SCHEMA_4_TABLES)) {
    db.exec(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM source.${table}`);
  }
  db.exec(
    'INSERT INTO main.mem_kb_fts (rowid, scope, body) SELECT rowid, scope, body FROM source.mem_kb_fts',
  );
  db.exec('DETACH DATABASE source');
  db.close();
  return path;
}

describe('createSqliteStore: users in the file', () => {
  it('migrates a schema 4 file in place: every session, message, archive and chunk stays, with no user', async () => {
    const source = freshFile();
    const before = store(source);
    const ids = Array.from({ length: 5 }, (_, i) => `old-${i}`);
    for (const id of ids) await appendAs(before, id, undefined, 6);
    await before.compact('old-0', await planCompaction(before, 'old-0', 4));
    await before.clear('old-4');
    const snapshots = await Promise.all(ids.slice(0, 4).map((id) => before.export(id)));
    const kb = createSqliteKnowledgeBase({ path: source });
    opened.push(kb);
    await kb.add(TEST_COLLECTION, [
      knowledgeChunk('a:0', 'greyhound Comet at the beach', { sessionId: 'old-0' }),
      knowledgeChunk('b:0', 'Comet the greyhound won a ribbon', { sessionId: 'old-1' }),
    ]);
    const path = schema4Copy(source);

    const after = store(path);
    expect((await listAll(after)).flat()).toStrictEqual(ids.slice(0, 4));
    for (const snapshot of snapshots) {
      expect(await after.export(snapshot!.sessionId)).toStrictEqual(snapshot);
      expect(snapshot!.info).not.toHaveProperty('userId');
    }
    expect(await after.list({ userId: 'anyone' })).toStrictEqual({ sessionIds: [] });
    const check = raw(path, true);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(
      check.prepare('SELECT count(*) FROM mem_sessions WHERE user_id IS NOT NULL').pluck().get(),
    ).toBe(0);
    expect(check.prepare('SELECT count(*) FROM mem_user_facts').pluck().get()).toBe(0);

    // Old sessions bind on their first append naming a user; their history stays.
    await appendAs(after, 'old-1', 'alice');
    expect((await after.info('old-1'))?.userId).toBe('alice');
    expect((await after.read('old-1')).messages).toHaveLength(8);
    expect(await after.list({ userId: 'alice' })).toStrictEqual({ sessionIds: ['old-1'] });

    // Old chunks are found as before and belong to no user.
    const migrated = createSqliteKnowledgeBase({ path });
    opened.push(migrated);
    const hits = await migrated.search(TEST_COLLECTION, 'greyhound Comet', { topK: 5 });
    expect(hits.map((h) => h.chunk.id).sort()).toStrictEqual(['a:0', 'b:0']);
    expect(hits.every((h) => !('userId' in h.chunk.metadata))).toBe(true);
    expect(await migrated.count(TEST_COLLECTION, { userId: 'alice' })).toBe(0);
    expect(
      await migrated.search(TEST_COLLECTION, 'greyhound Comet', { topK: 5, userId: 'alice' }),
    ).toStrictEqual([]);
  });

  it('binds user ids with quotes, LIKE wildcards and unicode as parameters, never as SQL or patterns', async () => {
    const path = freshFile();
    const s = store(path);
    const kb = createSqliteKnowledgeBase({ path });
    opened.push(kb);
    const users = ['%', '_', 'a_c', 'abc', "o'brien", '"; DROP TABLE mem_sessions; --', 'Zoë 😀'];
    for (const user of users) {
      await appendAs(s, `session of ${user}`, user);
      await s.writeUserFacts(user, { expectedVersion: 0, facts: [userFact(`fact of ${user}`)] });
      await kb.add(TEST_COLLECTION, [
        knowledgeChunk('c:0', `greyhound note of ${user}`, {
          sessionId: `session of ${user}`,
          userId: user,
        }),
      ]);
    }
    const check = raw(path, true);
    expect(
      check.prepare('SELECT user_id FROM mem_sessions ORDER BY user_id').pluck().all(),
    ).toStrictEqual([...users].sort());
    for (const user of users) {
      // '%' and '_' match only themselves: 'a_c' is not 'abc', '%' is not everyone.
      expect(await s.list({ userId: user })).toStrictEqual({ sessionIds: [`session of ${user}`] });
      expect((await s.userFacts(user)).facts.map((f) => f.text)).toStrictEqual([`fact of ${user}`]);
      const hits = await kb.search(TEST_COLLECTION, 'greyhound', { topK: 10, userId: user });
      expect(hits.map((h) => h.chunk.metadata.userId)).toStrictEqual([user]);
      expect(await kb.count(TEST_COLLECTION, { userId: user })).toBe(1);
    }
    expect(await s.forgetUser('%')).toStrictEqual({ sessions: 1, messages: 2, facts: 1 });
    expect(await s.forgetUser('a_c')).toStrictEqual({ sessions: 1, messages: 2, facts: 1 });
    expect(await kb.delete(TEST_COLLECTION, { userId: '_' })).toBe(1);
    const left = users.filter((u) => u !== '%' && u !== 'a_c');
    expect((await listAll(s)).flat().sort()).toStrictEqual(
      left.map((u) => `session of ${u}`).sort(),
    );
    expect(await kb.count(TEST_COLLECTION)).toBe(users.length - 1);
    expect(check.prepare('SELECT count(*) FROM mem_sessions').pluck().get()).toBe(left.length);
  });

  it('keeps an emptied facts document as a row, so the version keeps growing; forgetUser deletes it', async () => {
    const path = freshFile();
    const s = store(path);
    await s.writeUserFacts('u', { expectedVersion: 0, facts: [userFact('likes tea')] });
    const check = raw(path, true);
    const rowOf = () =>
      check.prepare('SELECT version, facts FROM mem_user_facts WHERE user_id = ?').get('u');
    await s.writeUserFacts('u', { expectedVersion: 1, facts: [] });
    expect(rowOf()).toStrictEqual({ version: 2, facts: '[]' });
    expect(await s.forgetUser('u')).toStrictEqual({ sessions: 0, messages: 0, facts: 0 });
    expect(rowOf()).toBeUndefined();
  });

  it('leaves no row of a forgotten user in any table, and every row of others', async () => {
    const path = freshFile();
    const s = store(path);
    await appendAs(s, 'gone', 'alice', 6);
    await s.compact('gone', await planCompaction(s, 'gone', 4));
    await appendAs(s, 'kept', 'bob', 6);
    await s.compact('kept', await planCompaction(s, 'kept', 4));
    await s.writeUserFacts('alice', { expectedVersion: 0, facts: [userFact('a')] });
    await s.writeUserFacts('bob', { expectedVersion: 0, facts: [userFact('b')] });
    const check = raw(path, true);
    const counts = () =>
      Object.fromEntries(
        [
          'mem_sessions',
          'mem_messages',
          'mem_archive',
          'mem_summaries',
          'mem_idempotency',
          'mem_user_facts',
        ].map((t) => [t, check.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]),
      );
    const both = counts();
    await s.forgetUser('alice');
    const after = counts();
    for (const [table, n] of Object.entries(both)) expect(after[table], table).toBe(n / 2);
    expect(
      check.prepare("SELECT count(*) FROM mem_sessions WHERE user_id = 'alice'").pluck().get(),
    ).toBe(0);
  });
});

describe('createSqliteStore: forgetUser of a user with many sessions', () => {
  const SESSIONS = 2_000;

  /** A file with `SESSIONS` sessions of `user` (2 messages each) and one session of `other`. */
  async function manySessions(path: string, user: string, other: string): Promise<void> {
    const s = createSqliteStore({ path });
    try {
      for (let i = 0; i < SESSIONS; i++) await appendAs(s, `s${i}`, user);
      await appendAs(s, 'other', other);
      await s.writeUserFacts(user, { expectedVersion: 0, facts: [userFact('x'), userFact('y')] });
    } finally {
      await s.close();
    }
  }

  it(`removes all ${SESSIONS} sessions in batches of at most ${FORGET_BATCH_SESSIONS}, letting another connection write between them`, async () => {
    const path = freshFile();
    await manySessions(path, 'many', 'someone');
    const forgetting = store(path);
    const writer = store(path);
    const check = raw(path, true);
    const left = check.prepare("SELECT count(*) FROM mem_sessions WHERE user_id = 'many'").pluck();

    let done = false;
    const forgot = forgetting.forgetUser('many').finally(() => {
      done = true;
    });
    // Another connection appends whenever the event loop lets it, and looks at what is left.
    const seen: number[] = [];
    while (!done) {
      await appendAs(writer, 'other', 'someone', 1);
      seen.push(left.get() as number);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(await forgot).toStrictEqual({ sessions: SESSIONS, messages: 2 * SESSIONS, facts: 2 });
    expect(left.get()).toBe(0);
    const between = seen.filter((n) => n > 0 && n < SESSIONS);
    // One write between every two batches: the lock was never held for all sessions at once.
    expect(between.length).toBeGreaterThanOrEqual(SESSIONS / FORGET_BATCH_SESSIONS - 1);
    for (let i = 1; i < between.length; i++) {
      expect(between[i - 1]! - between[i]!).toBeLessThanOrEqual(FORGET_BATCH_SESSIONS);
    }
    expect((await writer.info('other'))?.messageCount).toBe(2 + seen.length);
  }, 120_000);

  it('resumes: a run stopped after its first batch leaves whole sessions, and the next run removes the rest', async () => {
    const path = freshFile();
    await manySessions(path, 'stopped', 'someone');
    const first = createSqliteStore({ path });
    const stopped = first.forgetUser('stopped').then(
      () => 'finished',
      (error: Error) => error.message,
    );
    // The first batch ran synchronously; the store closes before the second one.
    await first.close();
    expect(await stopped).toMatch(/closed/);
    const check = raw(path, true);
    const remaining = check
      .prepare("SELECT count(*) FROM mem_sessions WHERE user_id = 'stopped'")
      .pluck()
      .get() as number;
    expect(remaining).toBe(SESSIONS - FORGET_BATCH_SESSIONS);
    // Every remaining session is whole: its counters match its rows.
    expect(
      check
        .prepare(
          `SELECT count(*) FROM mem_sessions s WHERE user_id = 'stopped'
           AND message_count != (SELECT count(*) FROM mem_messages WHERE session = s.id)`,
        )
        .pluck()
        .get(),
    ).toBe(0);
    const again = store(path);
    expect(await again.forgetUser('stopped')).toStrictEqual({
      sessions: remaining,
      messages: 2 * remaining,
      facts: 2,
    });
    expect(await again.forgetUser('stopped')).toStrictEqual({ sessions: 0, messages: 0, facts: 0 });
    expect(await again.list()).toStrictEqual({ sessionIds: ['other'] });
  }, 120_000);
});

describe('createSqliteKnowledgeBase: chunks of a user among many others', () => {
  it("finds a small user's nearest vectors among 200 closer ones of another user (filtered in the scan, not after it)", async () => {
    const embedder = createWordVectorEmbedder();
    const kb = createSqliteKnowledgeBase({ path: freshFile(), embedder, retrieval: 'semantic' });
    opened.push(kb);
    const ofBob = Array.from({ length: 200 }, (_, i) =>
      knowledgeChunk(`b:${i}`, 'greyhound Comet ribbon', { sessionId: 'bob-1', userId: 'bob' }),
    );
    const ofAlice = [
      knowledgeChunk('a:0', 'greyhound on the beach', { sessionId: 'alice-1', userId: 'alice' }),
      knowledgeChunk('a:1', 'a ribbon for the garden', { sessionId: 'alice-2', userId: 'alice' }),
    ];
    await kb.add(TEST_COLLECTION, [...ofBob, ...ofAlice]);
    const query = 'greyhound Comet ribbon';
    const hits = await kb.search(TEST_COLLECTION, query, { topK: 2, userId: 'alice' });
    expect(hits.map((h) => h.chunk.id).sort()).toStrictEqual(['a:0', 'a:1']);
    const inSession = { topK: 2, userId: 'alice', sessionId: 'alice-2' };
    expect(
      (await kb.search(TEST_COLLECTION, query, inSession)).map((h) => h.chunk.id),
    ).toStrictEqual(['a:1']);
    const unfiltered = await kb.search(TEST_COLLECTION, query, { topK: 2 });
    expect(unfiltered.every((h) => h.chunk.metadata.userId === 'bob')).toBe(true);
    expect(await kb.delete(TEST_COLLECTION, { userId: 'bob' })).toBe(200);
    expect(await kb.count(TEST_COLLECTION)).toBe(2);
  });
});
