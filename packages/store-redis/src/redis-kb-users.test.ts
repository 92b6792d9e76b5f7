import type { KnowledgeBase, KnowledgeChunk } from '@mem/core/backend';
import { knowledgeChunk, searchIds, TEST_COLLECTION } from '@mem/store-test-suite';
import { Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { KB_ADD_BASELINE } from './__fixtures__/kb-baseline-lua.ts';
import { addArguments } from './redis-kb-add-arguments.ts';
import { KB_ADD, KB_DELETE, runKbScript } from './redis-kb-scripts.ts';
import { userSessionsKey } from './redis-kb-users.ts';
import { createRedisKnowledgeBase, kbKeys } from './redis-knowledge-base.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
let runs = 0;
/** A key prefix no other test uses. */
const fresh = () => {
  runs += 1;
  return `kbusr${Date.now().toString(36)}${runs}`;
};

const opened: KnowledgeBase[] = [];
const clients: (Redis | Cluster)[] = [];
afterAll(async () => {
  for (const kb of opened) await kb.close();
  for (const client of clients) client.disconnect();
});

function kbOn(prefix: string, cluster = false): KnowledgeBase {
  const kb = createRedisKnowledgeBase(cluster ? { nodes, prefix } : { url, prefix });
  opened.push(kb);
  return kb;
}
function raw(cluster = false): Redis | Cluster {
  const client = cluster ? new Cluster(nodes) : new Redis(url);
  clients.push(client);
  return client;
}

/** A chunk about a lantern in `sessionId`, of `userId` (none when undefined). */
const chunk = (id: string, sessionId: string, userId?: string): KnowledgeChunk =>
  knowledgeChunk(id, `lantern harbour note ${id}`, {
    sessionId,
    messageIds: [`m-${id}`],
    ...(userId === undefined ? {} : { userId }),
  });

const sorted = (ids: string[]) => [...ids].sort();

describe('knowledge base users (Redis)', () => {
  it('in a session written before users, search, count and delete by user see only the user', async () => {
    const prefix = fresh();
    const kb = kbOn(prefix);
    const client = raw() as Redis;
    const keys = kbKeys(prefix, 'default', TEST_COLLECTION, 'legacy');
    // Chunks the previous version wrote (no users), then chunks of Alice in the same session.
    const old = [chunk('old-1', 'legacy'), chunk('old-2', 'legacy')];
    const args = old.flatMap((c) => addArguments(c, ''));
    await runKbScript(client, KB_ADD_BASELINE, keys.slice(0, 7), ['', old.length, ...args]);
    await kb.add(TEST_COLLECTION, [
      chunk('a-1', 'legacy', 'alice'),
      chunk('a-2', 'legacy', 'alice'),
    ]);

    expect(sorted(await searchIds(kb, 'lantern', { topK: 10 }))).toStrictEqual([
      'a-1',
      'a-2',
      'old-1',
      'old-2',
    ]);
    expect(sorted(await searchIds(kb, 'lantern', { userId: 'alice', topK: 10 }))).toStrictEqual([
      'a-1',
      'a-2',
    ]);
    expect(await searchIds(kb, 'lantern', { userId: 'alice', topK: 1 })).toHaveLength(1);
    expect(await kb.count(TEST_COLLECTION, { userId: 'alice' })).toBe(2);
    expect(await kb.delete(TEST_COLLECTION, { userId: 'alice' })).toBe(2);
    expect(sorted(await searchIds(kb, 'lantern', { topK: 10 }))).toStrictEqual(['old-1', 'old-2']);
    expect(await client.exists(userSessionsKey(prefix, 'default', TEST_COLLECTION, 'alice'))).toBe(
      0,
    );
  });

  it("the add script writes a user's first chunk in a session only once the client says the set lists it", async () => {
    const prefix = fresh();
    const client = raw();
    const keys = kbKeys(prefix, 'default', TEST_COLLECTION, 'first');
    const run = (indexed: string, id: string) =>
      runKbScript(client, KB_ADD, keys, [
        '',
        1,
        indexed,
        'ivy',
        ...addArguments(chunk(id, 'first', 'ivy'), ''),
      ]);
    expect(await run('0', 'i-1')).toStrictEqual(['index', 'ivy']);
    expect(await client.exists(...keys)).toBe(0);
    // 'ok', the session's epoch (none given here), how many chunks, their doc numbers, users.
    expect(await run('1', 'i-1')).toStrictEqual(['ok', '', '1', '1', 'ivy']);
    // The session holds a chunk of Ivy now: more of hers need nothing more.
    expect(await run('0', 'i-2')).toStrictEqual(['ok', '', '1', '2']);
    expect(await client.hmget(keys[5]!, 'n:ivy', 'docs')).toStrictEqual(['2', '2']);
  });

  it("lists in the user's set exactly the sessions that hold the user's chunks", async () => {
    const prefix = fresh();
    const kb = kbOn(prefix);
    const client = raw();
    const chunks = Array.from({ length: 20 }, (_, i) => chunk(`b-${i}`, `bob-${i}`, 'bob'));
    await kb.add(TEST_COLLECTION, [
      ...chunks,
      chunk('a-1', 'alice-1', 'alice'),
      chunk('a-2', 'alice-2', 'alice'),
      chunk('a-3', 'alice-2', 'alice'),
    ]);
    const set = userSessionsKey(prefix, 'default', TEST_COLLECTION, 'alice');
    expect(sorted(await client.smembers(set))).toStrictEqual(['alice-1', 'alice-2']);
    expect(await kb.count(TEST_COLLECTION, { userId: 'alice' })).toBe(3);
    expect(await kb.count(TEST_COLLECTION, { userId: 'bob' })).toBe(20);
  });

  it('skips a stale set entry (chunks deleted by session) and drops it on delete by user', async () => {
    const prefix = fresh();
    const kb = kbOn(prefix);
    const client = raw();
    await kb.add(TEST_COLLECTION, [chunk('c-1', 'gone', 'carol'), chunk('c-2', 'kept', 'carol')]);
    expect(await kb.delete(TEST_COLLECTION, { sessionId: 'gone' })).toBe(1);
    const set = userSessionsKey(prefix, 'default', TEST_COLLECTION, 'carol');
    expect(sorted(await client.smembers(set))).toStrictEqual(['gone', 'kept']);
    expect(await searchIds(kb, 'lantern', { userId: 'carol', topK: 10 })).toStrictEqual(['c-2']);
    expect(await kb.count(TEST_COLLECTION, { userId: 'carol' })).toBe(1);
    // The session is used again, by someone else: Carol's stale entry never shows it.
    await kb.add(TEST_COLLECTION, [chunk('d-1', 'gone', 'dave')]);
    expect(await searchIds(kb, 'lantern', { userId: 'carol', topK: 10 })).toStrictEqual(['c-2']);
    expect(await kb.delete(TEST_COLLECTION, { userId: 'carol' })).toBe(1);
    expect(await client.exists(set)).toBe(0);
    expect(await searchIds(kb, 'lantern', { userId: 'dave', topK: 10 })).toStrictEqual(['d-1']);
  });

  it('finishes a delete by user that was cut short after some sessions', async () => {
    const prefix = fresh();
    const kb = kbOn(prefix);
    const client = raw();
    const sessions = ['e-1', 'e-2', 'e-3'];
    await kb.add(TEST_COLLECTION, [
      ...sessions.flatMap((s) => [chunk(`${s}:0`, s, 'erin'), chunk(`${s}:1`, s, 'erin')]),
      chunk('f-1', 'e-2', 'frank'),
    ]);
    // What a run killed after its first session leaves: e-1 emptied, its entry still listed.
    const keys = kbKeys(prefix, 'default', TEST_COLLECTION, 'e-1');
    expect(await runKbScript(client, KB_DELETE, keys, ['user', 'erin'])).toBe(2);
    expect(await kb.delete(TEST_COLLECTION, { userId: 'erin' })).toBe(4);
    expect(await kb.count(TEST_COLLECTION, { userId: 'erin' })).toBe(0);
    for (const s of ['e-1', 'e-3']) {
      expect(await client.exists(...kbKeys(prefix, 'default', TEST_COLLECTION, s))).toBe(0);
    }
    expect(await client.exists(userSessionsKey(prefix, 'default', TEST_COLLECTION, 'erin'))).toBe(
      0,
    );
    expect(await searchIds(kb, 'lantern', { topK: 10 })).toStrictEqual(['f-1']);
    expect(await kb.delete(TEST_COLLECTION, { userId: 'erin' })).toBe(0);
  });

  it('keeps user ids with braces, stars, colons and unicode apart, each set under one base64url tag', async () => {
    const prefix = fresh();
    const kb = kbOn(prefix);
    const users = ['*', 'a', '{a}', 'a:b', ':', '}', 'ü 😀', 'n:a', 'o:1'];
    await kb.add(
      TEST_COLLECTION,
      users.map((u, i) => chunk(`u${i}`, i % 2 === 0 ? 'mixed' : `own-${i}`, u)),
    );
    for (const [i, u] of users.entries()) {
      const key = userSessionsKey(prefix, 'default', TEST_COLLECTION, u);
      expect(key.slice(key.indexOf('{') + 1, key.indexOf('}'))).toMatch(
        new RegExp(`^${prefix}:kbu:default:${TEST_COLLECTION}:[A-Za-z0-9_-]+$`),
      );
      expect(await searchIds(kb, 'lantern', { userId: u, topK: 20 }), u).toStrictEqual([`u${i}`]);
      expect(await kb.count(TEST_COLLECTION, { sessionId: 'mixed', userId: u })).toBe(
        i % 2 === 0 ? 1 : 0,
      );
    }
    expect(await kb.delete(TEST_COLLECTION, { userId: '*' })).toBe(1);
    expect(await kb.count(TEST_COLLECTION)).toBe(users.length - 1);
    for (const u of users.slice(1)) expect(await kb.count(TEST_COLLECTION, { userId: u })).toBe(1);
  });
});

describe('knowledge base users (Redis Cluster)', () => {
  it('deletes a user whose sessions span all three masters, and leaves no key of theirs', async () => {
    const prefix = fresh();
    const kb = kbOn(prefix, true);
    const cluster = raw(true) as Cluster;
    const ranges = await cluster.cluster('SLOTS');
    const portOf = async (key: string) => {
      const slot = (await cluster.cluster('KEYSLOT', key)) as number;
      return ranges.find(([from, to]) => from <= slot && slot <= to)?.[2]?.[1];
    };
    const sessions: string[] = [];
    const ports = new Set<number | undefined>();
    for (let i = 0; i < 200 && (ports.size < 3 || sessions.length < 6); i++) {
      const id = `gina-${i}`;
      sessions.push(id);
      ports.add(await portOf(kbKeys(prefix, 'default', TEST_COLLECTION, id)[0]!));
    }
    expect(ports.size).toBe(3);
    await kb.add(TEST_COLLECTION, [
      ...sessions.map((s) => chunk(`${s}:0`, s, 'gina')),
      ...sessions.map((s) => chunk(`h-${s}`, `hal-${s}`, 'hal')),
    ]);
    expect(await kb.count(TEST_COLLECTION, { userId: 'gina' })).toBe(sessions.length);
    expect(await searchIds(kb, 'lantern', { userId: 'gina', topK: 100 })).toHaveLength(
      sessions.length,
    );

    expect(await kb.delete(TEST_COLLECTION, { userId: 'gina' })).toBe(sessions.length);
    const gina = [
      ...sessions.flatMap((s) => kbKeys(prefix, 'default', TEST_COLLECTION, s)),
      userSessionsKey(prefix, 'default', TEST_COLLECTION, 'gina'),
    ];
    const present = await Promise.all(gina.map((key) => cluster.exists(key)));
    expect(present.reduce((sum, n) => sum + n, 0)).toBe(0);
    expect(await kb.count(TEST_COLLECTION, { userId: 'hal' })).toBe(sessions.length);
    expect(await searchIds(kb, 'lantern', { userId: 'gina', topK: 100 })).toStrictEqual([]);
  });
});
