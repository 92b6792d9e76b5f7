import type { Store } from '@mem/core/backend';
import { describe, expect, it } from 'vitest';
import {
  append,
  conversation,
  expectMemError,
  listAll,
  numbered,
  planCompaction,
  uniqueId,
} from './fixtures.ts';
import { useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Appends `count` messages under a fresh key, naming `userId` when given. */
function appendAs(store: Store, sessionId: string, userId: string | undefined, count = 2) {
  return store.append(sessionId, conversation(count), {
    idempotencyKey: uniqueId('key'),
    ...(userId === undefined ? {} : { userId }),
  });
}

async function userOf(store: Store, sessionId: string): Promise<string | undefined> {
  const info = await store.info(sessionId);
  expect(info, `session ${sessionId} exists`).not.toBeNull();
  return info?.userId;
}

/**
 * Sessions that belong to a user (Store v3): the first append naming a user binds the session,
 * another user is refused and writes nothing, and `list({ userId })` pages through exactly the
 * user's sessions.
 */
export function userBindingTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('user binding', () => {
    const stores = useStores(createStore, options);

    it('binds a new session to the user its first append names', async () => {
      const store = await stores.open();
      const [id, user] = [uniqueId('bind'), uniqueId('user')];
      await appendAs(store, id, user);
      expect(await userOf(store, id)).toBe(user);
      expect((await store.export(id))?.info.userId).toBe(user);
    });

    it('leaves a session without a user when no append names one', async () => {
      const store = await stores.open();
      const id = uniqueId('unbound');
      await appendAs(store, id, undefined);
      expect(await store.info(id)).not.toHaveProperty('userId');
      expect((await store.export(id))?.info).not.toHaveProperty('userId');
    });

    it('refuses an append naming another user, naming the field userId, and writes nothing', async () => {
      const store = await stores.open();
      const [id, owner, intruder] = [uniqueId('owned'), uniqueId('owner'), uniqueId('intruder')];
      await appendAs(store, id, owner, 3);
      const before = await store.export(id);
      const error = await expectMemError(appendAs(store, id, intruder), 'MEM_VALIDATION', 'userId');
      expect(error.message).toContain('userId');
      expect(await store.export(id)).toStrictEqual(before);
      expect((await listAll(store, undefined, intruder)).flat()).toStrictEqual([]);
    });

    it('refuses a retry of an applied key that names another user, and still answers the owner', async () => {
      const store = await stores.open();
      const [id, owner, intruder] = [uniqueId('retry'), uniqueId('owner'), uniqueId('intruder')];
      const messages = conversation(2);
      const first = await store.append(id, messages, { idempotencyKey: 'k', userId: owner });
      const before = await store.export(id);
      await expectMemError(
        store.append(id, messages, { idempotencyKey: 'k', userId: intruder }),
        'MEM_VALIDATION',
        'userId',
      );
      expect(await store.export(id)).toStrictEqual(before);
      const retry = { ...first, duplicate: true };
      expect(
        await store.append(id, messages, { idempotencyKey: 'k', userId: owner }),
      ).toStrictEqual(retry);
      expect(await store.append(id, messages, { idempotencyKey: 'k' })).toStrictEqual(retry);
      expect(await store.export(id)).toStrictEqual(before);
    });

    it('binds a session stored without a user on the first append that names one', async () => {
      const store = await stores.open();
      const [id, user, other] = [uniqueId('late'), uniqueId('user'), uniqueId('other')];
      const early = conversation(2);
      await append(store, id, early);
      const later = conversation(2);
      await store.append(id, later, { idempotencyKey: uniqueId('key'), userId: user });
      expect(await userOf(store, id)).toBe(user);
      expect((await store.read(id)).messages).toStrictEqual(numbered([...early, ...later], 1));
      expect((await listAll(store, undefined, user)).flat()).toStrictEqual([id]);
      await expectMemError(appendAs(store, id, other), 'MEM_VALIDATION', 'userId');
    });

    it('keeps the binding on appends that name no user, or the same user', async () => {
      const store = await stores.open();
      const [id, user] = [uniqueId('keep'), uniqueId('user')];
      await appendAs(store, id, user);
      await appendAs(store, id, undefined);
      await appendAs(store, id, user);
      expect(await userOf(store, id)).toBe(user);
      expect((await store.info(id))?.messageCount).toBe(6);
    });

    it('keeps the binding through compact, erase, pop, replace and flush', async () => {
      const store = await stores.open();
      const [id, user] = [uniqueId('rewrites'), uniqueId('user')];
      await appendAs(store, id, user, 6);
      await store.compact(id, await planCompaction(store, id, 3));
      expect(await userOf(store, id)).toBe(user);
      await store.flush(id, { expectedEpoch: (await store.read(id)).epoch });
      expect(await userOf(store, id)).toBe(user);
      expect((await store.pop(id)).message).not.toBeNull();
      expect(await userOf(store, id)).toBe(user);
      await store.erase(id, { expectedEpoch: (await store.read(id)).epoch, throughSeq: 4 });
      expect(await userOf(store, id)).toBe(user);
      await store.replace(id, { messages: conversation(2) });
      expect(await userOf(store, id)).toBe(user);
      await store.replace(id, { messages: [] });
      expect(await userOf(store, id)).toBe(user);
      expect((await listAll(store, undefined, user)).flat()).toStrictEqual([id]);
    });

    it('drops the binding on clear: the next append may name another user', async () => {
      const store = await stores.open();
      const [id, first, second] = [uniqueId('cleared'), uniqueId('first'), uniqueId('second')];
      await appendAs(store, id, first);
      expect(await store.clear(id)).toBe(true);
      expect((await listAll(store, undefined, first)).flat()).toStrictEqual([]);
      await appendAs(store, id, second);
      expect(await userOf(store, id)).toBe(second);
      expect((await listAll(store, undefined, first)).flat()).toStrictEqual([]);
      expect((await listAll(store, undefined, second)).flat()).toStrictEqual([id]);
      expect(await store.clear(id)).toBe(true);
      await appendAs(store, id, undefined);
      expect(await store.info(id)).not.toHaveProperty('userId');
    });

    it('carries the binding through export and import, and an import replaces it', async () => {
      const [source, target] = [await stores.open(), await stores.open()];
      const [id, user, other] = [uniqueId('moved'), uniqueId('user'), uniqueId('other')];
      await appendAs(source, id, user, 3);
      const snapshot = (await source.export(id))!;
      expect(snapshot.info.userId).toBe(user);
      await target.import(snapshot);
      expect(await target.export(id)).toStrictEqual(snapshot);
      expect((await listAll(target, undefined, user)).flat()).toStrictEqual([id]);
      await expectMemError(appendAs(target, id, other), 'MEM_VALIDATION', 'userId');

      // A snapshot without a user (one from a v2 store) imports as an unbound session.
      const { userId: _dropped, ...unboundInfo } = snapshot.info;
      await target.import({ ...snapshot, info: unboundInfo });
      expect(await target.info(id)).not.toHaveProperty('userId');
      expect((await listAll(target, undefined, user)).flat()).toStrictEqual([]);

      // A snapshot of another user replaces the binding.
      await target.import({ ...snapshot, info: { ...snapshot.info, userId: other } });
      expect(await userOf(target, id)).toBe(other);
      expect((await listAll(target, undefined, user)).flat()).toStrictEqual([]);
      expect((await listAll(target, undefined, other)).flat()).toStrictEqual([id]);
    });

    it('lists exactly the sessions of a user, page by page, whatever other users and unbound sessions exist', async () => {
      const store = await stores.open();
      const [alice, bob, nobody] = [uniqueId('alice'), uniqueId('bob'), uniqueId('nobody')];
      const ofAlice = Array.from({ length: 7 }, (_, i) => uniqueId(`alice-${i}`));
      const ofBob = Array.from({ length: 5 }, (_, i) => uniqueId(`bob-${i}`));
      const unbound = Array.from({ length: 3 }, (_, i) => uniqueId(`none-${i}`));
      // Interleaved, so a user's sessions are not neighbours in id order or creation order.
      for (let i = 0; i < 7; i++) {
        await appendAs(store, ofAlice[i]!, alice, 1);
        if (i < 5) await appendAs(store, ofBob[i]!, bob, 1);
        if (i < 3) await appendAs(store, unbound[i]!, undefined, 1);
      }
      for (const limit of [1, 2, 3, undefined]) {
        const pages = await listAll(store, limit, alice);
        const listed = pages.flat();
        expect(listed).toHaveLength(ofAlice.length);
        expect(new Set(listed)).toStrictEqual(new Set(ofAlice));
        expect((await listAll(store, limit, bob)).flat().sort()).toStrictEqual([...ofBob].sort());
      }
      expect(await store.list({ userId: nobody })).toStrictEqual({ sessionIds: [] });
      expect((await listAll(store, 4)).flat().sort()).toStrictEqual(
        [...ofAlice, ...ofBob, ...unbound].sort(),
      );
    });

    it('pages through a user with a cursor while sessions come and go', async () => {
      const store = await stores.open();
      const user = uniqueId('user');
      const ids = Array.from({ length: 9 }, (_, i) => uniqueId(`paged-${i}`));
      for (const id of ids) await appendAs(store, id, user, 1);
      const first = await store.list({ userId: user, limit: 3 });
      expect(first.sessionIds).toHaveLength(3);
      expect(first.cursor).toBeTypeOf('string');
      const unseen = ids.filter((id) => !first.sessionIds.includes(id));
      await store.clear(unseen[0]!);
      await appendAs(store, uniqueId('someone-else'), uniqueId('other'), 1);
      const rest: string[] = [];
      let cursor = first.cursor;
      for (let pages = 0; cursor !== undefined; pages++) {
        expect(pages, 'list keeps returning a cursor').toBeLessThan(100);
        const page = await store.list({ userId: user, cursor, limit: 3 });
        expect(page.sessionIds.length).toBeLessThanOrEqual(3);
        rest.push(...page.sessionIds);
        cursor = page.cursor;
      }
      const listed = [...first.sessionIds, ...rest];
      expect(new Set(listed).size).toBe(listed.length);
      expect(listed.sort()).toStrictEqual(ids.filter((id) => id !== unseen[0]).sort());
    });

    it('keeps users of one namespace invisible in another', async () => {
      const [a, b] = [await stores.open(), await stores.open()];
      const [user, other] = [uniqueId('user'), uniqueId('other')];
      const [inA, both] = [uniqueId('in-a'), uniqueId('both')];
      await appendAs(a, inA, user);
      await appendAs(a, both, user);
      await appendAs(b, both, other);
      expect((await listAll(a, 1, user)).flat().sort()).toStrictEqual([inA, both].sort());
      expect((await listAll(b, 1, user)).flat()).toStrictEqual([]);
      expect((await listAll(b, 1, other)).flat()).toStrictEqual([both]);
      expect(await userOf(a, both)).toBe(user);
      expect(await userOf(b, both)).toBe(other);
    });

    it('refuses an invalid userId in append and list, naming the field, and writes nothing', async () => {
      const store = await stores.open();
      const id = uniqueId('bad-user');
      for (const userId of ['', 'a\ud800b', 'line\nbreak', 'x'.repeat(513), 42, null]) {
        await expectMemError(
          store.append(id, conversation(1), { idempotencyKey: 'k', userId } as never),
          'MEM_VALIDATION',
          'userId',
        );
        await expectMemError(store.list({ userId } as never), 'MEM_VALIDATION', 'userId');
      }
      expect(await store.info(id)).toBeNull();
      // The longest valid user id and odd characters are stored exactly.
      for (const userId of ['x'.repeat(512), '😀 e\u0301', "'; DROP TABLE users; --", '{*}']) {
        const session = uniqueId('odd-user');
        await appendAs(store, session, userId);
        expect(await userOf(store, session)).toBe(userId);
        expect((await listAll(store, undefined, userId)).flat()).toStrictEqual([session]);
      }
    });
  });
}
