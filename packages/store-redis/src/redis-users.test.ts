import { MemError } from '@mem/core';
import type { Store } from '@mem/core/backend';
import { Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { appendArgs } from './append-plan.ts';
import { encodeBatch } from './encode-stored.ts';
import { SCRIPTS } from './lua-scripts.ts';
import { runScript } from './redis-connection.ts';
import { createRedisStore } from './redis-store.ts';
import { sessionKeys, userKeys } from './session-keys.ts';
import { FORGET_SESSION } from './user-scripts.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));
let runs = 0;
/** A key prefix no other test uses. */
const fresh = () => {
  runs += 1;
  return `usr${Date.now().toString(36)}${runs}`;
};
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const opened: Store[] = [];
const clients: (Redis | Cluster)[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
  for (const client of clients) client.disconnect();
});

function storeOn(options: { prefix: string; cluster?: boolean; ttlMs?: number }): Store {
  const { prefix, cluster, ttlMs } = options;
  const connection = cluster ? { nodes } : { url };
  const store = createRedisStore({ ...connection, prefix, ...(ttlMs ? { ttlMs } : {}) });
  opened.push(store);
  return store;
}

function raw(cluster = false): Redis | Cluster {
  const client = cluster ? new Cluster(nodes) : new Redis(url);
  clients.push(client);
  return client;
}

let messages = 0;
const turn = (count = 2) =>
  Array.from({ length: count }, () => {
    messages += 1;
    return {
      id: `m${messages}`,
      role: 'user' as const,
      content: `text ${messages}`,
      createdAt: 1_700_000_000_000,
      tokenCount: 2,
    };
  });
const appendAs = (store: Store, sessionId: string, userId?: string, count = 2) =>
  store.append(sessionId, turn(count), {
    idempotencyKey: `k${messages}`,
    ...(userId === undefined ? {} : { userId }),
  });
const fact = (id: string, text: string) => ({
  id,
  text,
  sourceMessageIds: [],
  createdAt: 1,
  updatedAt: 2,
});

async function listed(store: Store, userId: string): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ userId, limit: 2, ...(cursor ? { cursor } : {}) });
    out.push(...page.sessionIds);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return out.sort();
}

/** Every key matching `pattern`, per master port (one entry for a standalone server). */
async function keysByNode(client: Redis | Cluster, pattern: string) {
  let servers = [client as Redis];
  if (client.isCluster) {
    const cluster = client as Cluster;
    if (cluster.nodes('master').length === 0) await cluster.ping();
    servers = cluster.nodes('master');
  }
  const out = new Map<number, string[]>();
  for (const server of servers) {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await server.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000);
      found.push(...keys);
      cursor = next;
    } while (cursor !== '0');
    out.set(server.options.port as number, found);
  }
  return out;
}

describe('user index (Redis)', () => {
  it('forgetUser leaves a session that was cleared and bound to another user, and drops the stale entry', async () => {
    const prefix = fresh();
    const store = storeOn({ prefix });
    const client = raw();
    await appendAs(store, 'shared', 'ursula');
    await appendAs(store, 'own', 'ursula', 3);
    await store.clear('shared');
    await appendAs(store, 'shared', 'victor', 4);
    const index = userKeys(prefix, 'default', 'ursula').index;
    // The clear could not reach Ursula's index (another slot): the entry is stale, and skipped.
    expect((await client.zrangebylex(index, '-', '+')).sort()).toStrictEqual(['own', 'shared']);
    expect(await listed(store, 'ursula')).toStrictEqual(['own']);
    expect(await listed(store, 'victor')).toStrictEqual(['shared']);

    expect(await store.forgetUser('ursula')).toStrictEqual({ sessions: 1, messages: 3, facts: 0 });
    expect(await client.exists(index)).toBe(0);
    expect(await store.info('shared')).toMatchObject({ userId: 'victor', messageCount: 4 });
    expect(await listed(store, 'victor')).toStrictEqual(['shared']);
    expect(await store.info('own')).toBeNull();
    expect(await client.exists(...sessionKeys(prefix, 'default', 'own'))).toBe(0);
  });

  it('the append script binds only once the client says the index holds the session', async () => {
    const prefix = fresh();
    const client = raw();
    const keys = sessionKeys(prefix, 'default', 'unindexed');
    const run = (indexed: boolean) =>
      runScript(
        client,
        SCRIPTS.append,
        keys,
        appendArgs('1700000000000', 0, 'k1', encodeBatch(turn(1)), undefined, 'uma', indexed).args,
      );
    expect(await run(false)).toStrictEqual(['index']);
    expect(await client.exists(...keys)).toBe(0);
    expect(((await run(true)) as string[])[0]).toBe('bound');
    expect(await client.hget(keys[0]!, 'user')).toBe('uma');
  });

  it('finishes a forgetUser that was cut short after some of the sessions', async () => {
    const prefix = fresh();
    const store = storeOn({ prefix });
    const client = raw();
    for (const id of ['s1', 's2', 's3']) await appendAs(store, id, 'walt', 2);
    await appendAs(store, 'other', 'xena', 2);
    await store.writeUserFacts('walt', { expectedVersion: 0, facts: [fact('f1', 'Likes jazz')] });
    // What a run killed after its first script leaves: s1 gone, its entry still listed.
    const reply = await runScript(client, FORGET_SESSION, sessionKeys(prefix, 'default', 's1'), [
      'walt',
    ]);
    expect(reply).toStrictEqual([1, 2]);
    expect(await store.forgetUser('walt')).toStrictEqual({ sessions: 2, messages: 4, facts: 1 });
    const left = [...(await keysByNode(client, `${prefix}:*`)).values()].flat();
    const xena = [
      ...sessionKeys(prefix, 'default', 'other'),
      userKeys(prefix, 'default', 'xena').index,
    ];
    expect(left.filter((key) => !xena.includes(key))).toStrictEqual([]);
    expect(await store.forgetUser('walt')).toStrictEqual({ sessions: 0, messages: 0, facts: 0 });
    expect(await store.info('other')).toMatchObject({ userId: 'xena' });
  });

  it('keeps user ids with braces, stars, colons and unicode apart, each under one base64url tag', async () => {
    const prefix = fresh();
    const store = storeOn({ prefix });
    const client = raw();
    const users = ['*', '{a}', 'a', '{', '}', 'a:b', ':', 'ü 😀', 'a}:ix', '{x}:*', '*:f'];
    for (const [i, user] of users.entries()) {
      await appendAs(store, `s-${i}`, user);
      await store.writeUserFacts(user, { expectedVersion: 0, facts: [fact('f', `fact ${i}`)] });
      const { index, facts } = userKeys(prefix, 'default', user);
      for (const key of [index, facts]) {
        const tag = key.slice(key.indexOf('{') + 1, key.indexOf('}'));
        expect(tag).toMatch(/^default:u:[A-Za-z0-9_-]+$/);
      }
    }
    for (const [i, user] of users.entries()) {
      expect(await listed(store, user)).toStrictEqual([`s-${i}`]);
      expect((await store.userFacts(user)).facts.map((f) => f.text)).toStrictEqual([`fact ${i}`]);
    }
    // Forgetting "*" is not a pattern: every other user stays whole.
    expect(await store.forgetUser('*')).toStrictEqual({ sessions: 1, messages: 2, facts: 1 });
    for (const [i, user] of users.entries()) {
      if (user === '*') continue;
      expect(await listed(store, user)).toStrictEqual([`s-${i}`]);
      expect((await store.userFacts(user)).version).toBe(1);
    }
    // Users' keys never look like a session's meta key, so `list()` sees sessions only.
    const all = (await store.list({ limit: 100 })).sessionIds;
    expect(all.sort()).toStrictEqual(
      users
        .slice(1)
        .map((_, i) => `s-${i + 1}`)
        .sort(),
    );
    expect(await client.exists(userKeys(prefix, 'default', '*').facts)).toBe(0);
  });

  it('with ttlMs, sessions expire but the index and the facts stay until forgetUser', async () => {
    const prefix = fresh();
    const store = storeOn({ prefix, ttlMs: 300 });
    const client = raw();
    await appendAs(store, 'brief', 'yara');
    await store.writeUserFacts('yara', { expectedVersion: 0, facts: [fact('f', 'Is brief')] });
    await sleep(700);
    expect(await store.info('brief')).toBeNull();
    expect(await store.list({ userId: 'yara' })).toStrictEqual({ sessionIds: [] });
    expect((await store.userFacts('yara')).facts).toHaveLength(1);
    const { index, facts } = userKeys(prefix, 'default', 'yara');
    expect(await client.pttl(index)).toBe(-1);
    expect(await client.pttl(facts)).toBe(-1);
    expect(await store.forgetUser('yara')).toStrictEqual({ sessions: 0, messages: 0, facts: 1 });
    expect(await client.exists(index, facts)).toBe(0);
  });

  it('refuses an append naming another user with MemValidationError on userId (and a retry of it)', async () => {
    const store = storeOn({ prefix: fresh() });
    await appendAs(store, 'taken', 'zoe');
    const before = await store.export('taken');
    for (let i = 0; i < 2; i++) {
      const error = await store
        .append('taken', turn(1), { idempotencyKey: 'same', userId: 'zed' })
        .catch((e: unknown) => e);
      expect(MemError.isInstance(error) && error.code).toBe('MEM_VALIDATION');
      expect((error as { field?: string }).field).toBe('userId');
    }
    expect(await store.export('taken')).toStrictEqual(before);
  });
});

describe('user index (Redis Cluster)', () => {
  it('forgets a user whose sessions span all three masters, and leaves no key of the user on any node', async () => {
    const prefix = fresh();
    const store = storeOn({ prefix, cluster: true });
    const cluster = raw(true) as Cluster;
    const ranges = await cluster.cluster('SLOTS');
    const portOf = async (id: string) => {
      const slot = (await cluster.cluster(
        'KEYSLOT',
        sessionKeys(prefix, 'default', id)[0]!,
      )) as number;
      return ranges.find(([from, to]) => from <= slot && slot <= to)?.[2]?.[1];
    };
    const ids: string[] = [];
    const ports = new Set<number | undefined>();
    // Sessions of the user until every master holds at least two.
    const perPort = new Map<number | undefined, number>();
    for (let i = 0; i < 200 && (perPort.size < 3 || Math.min(...perPort.values()) < 2); i++) {
      const id = `anna-${i}`;
      ids.push(id);
      await appendAs(store, id, 'anna', 2);
      await appendAs(store, `bert-${i}`, 'bert', 1);
      const port = await portOf(id);
      ports.add(port);
      perPort.set(port, (perPort.get(port) ?? 0) + 1);
    }
    expect(ports.size).toBe(3);
    // On disk too: the user's meta keys sit on three masters.
    const mine = new Set(ids.map((id) => sessionKeys(prefix, 'default', id)[0]));
    const metas = await keysByNode(cluster, `${prefix}:*:m`);
    expect([...metas.values()].filter((keys) => keys.some((k) => mine.has(k)))).toHaveLength(3);
    await store.writeUserFacts('anna', { expectedVersion: 0, facts: [fact('f', 'Runs')] });
    expect(await listed(store, 'anna')).toStrictEqual([...ids].sort());

    expect(await store.forgetUser('anna')).toStrictEqual({
      sessions: ids.length,
      messages: 2 * ids.length,
      facts: 1,
    });
    const left = [...(await keysByNode(cluster, `${prefix}:*`)).values()].flat();
    const anna = new Set([
      ...ids.flatMap((id) => sessionKeys(prefix, 'default', id)),
      ...Object.values(userKeys(prefix, 'default', 'anna')),
    ]);
    expect(left.filter((key) => anna.has(key))).toStrictEqual([]);
    // Bert is whole on every node.
    expect((await listed(store, 'bert')).length).toBe(ids.length);
    for (let i = 0; i < ids.length; i++) {
      expect(await store.info(`bert-${i}`)).toMatchObject({ userId: 'bert', messageCount: 1 });
    }
  });

  it("keeps a user's index and facts in one slot, whatever the user id", async () => {
    const prefix = fresh();
    const cluster = raw(true) as Cluster;
    for (const user of ['*', '{a}', 'ü 😀', 'x'.repeat(512)]) {
      const { index, facts } = userKeys(prefix, 'default', user);
      const [a, b] = await Promise.all([
        cluster.cluster('KEYSLOT', index),
        cluster.cluster('KEYSLOT', facts),
      ]);
      expect(a).toBe(b);
    }
  });
});
