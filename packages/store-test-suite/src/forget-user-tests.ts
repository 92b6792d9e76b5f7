import type { SessionSnapshot, Store } from '@mem/core/backend';
import { describe, expect, it } from 'vitest';
import { conversation, expectMemError, listAll, planCompaction, uniqueId } from './fixtures.ts';
import { useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';
import { userFact } from './user-facts-tests.ts';

/** Appends `count` messages under `key` (default: a fresh one), naming `userId` when given. */
function appendAs(
  store: Store,
  sessionId: string,
  userId: string | undefined,
  count = 2,
  key = uniqueId('key'),
) {
  return store.append(sessionId, conversation(count), {
    idempotencyKey: key,
    ...(userId === undefined ? {} : { userId }),
  });
}

/**
 * Three sessions of `userId` (one compacted, with an archive and a summary record; one with
 * several appends; one emptied by an erase) and two facts. Returns the session ids.
 */
async function userWithData(store: Store, userId: string): Promise<string[]> {
  const [compacted, appended, emptied] = [
    uniqueId('compacted'),
    uniqueId('appended'),
    uniqueId('emptied'),
  ];
  await appendAs(store, compacted, userId, 6);
  await store.compact(compacted, await planCompaction(store, compacted, 4));
  await appendAs(store, appended, userId, 2);
  await appendAs(store, appended, undefined, 3);
  await appendAs(store, emptied, userId, 2);
  await store.erase(emptied, { expectedEpoch: 0, throughSeq: 2 });
  const { version } = await store.userFacts(userId);
  await store.writeUserFacts(userId, {
    expectedVersion: version,
    facts: [userFact(`${userId} lives in Lisbon`), userFact(`${userId} likes tea`)],
  });
  return [compacted, appended, emptied];
}

async function exportAll(store: Store, ids: readonly string[]): Promise<SessionSnapshot[]> {
  return Promise.all(ids.map(async (id) => (await store.export(id))!));
}

const storedMessages = (snapshots: readonly SessionSnapshot[]) =>
  snapshots.reduce((sum, s) => sum + s.messages.length + s.archived.length, 0);

/** Checks that nothing of `sessionId` is readable any more. */
async function expectGone(store: Store, sessionId: string, summaryIds: string[]): Promise<void> {
  expect(await store.info(sessionId)).toBeNull();
  expect(await store.export(sessionId)).toBeNull();
  expect((await store.read(sessionId)).messages).toStrictEqual([]);
  expect(await store.summaries(sessionId)).toStrictEqual([]);
  for (const id of summaryIds) expect(await store.archived(sessionId, id)).toStrictEqual([]);
}

/**
 * `forgetUser` (Store v3): every session bound to the user goes with everything linked to it,
 * and the user's facts; nothing of anyone else is touched; a second run finds nothing.
 */
export function forgetUserTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('forgetUser', () => {
    const stores = useStores(createStore, options);

    it("removes exactly the user's sessions, archives, summaries and facts, and counts them", async () => {
      const store = await stores.open();
      const [alice, bob] = [uniqueId('alice'), uniqueId('bob')];
      const ofAlice = await userWithData(store, alice);
      const ofBob = await userWithData(store, bob);
      const unbound = uniqueId('unbound');
      await appendAs(store, unbound, undefined, 3);
      const aliceBefore = await exportAll(store, ofAlice);
      const othersBefore = await exportAll(store, [...ofBob, unbound]);
      const bobFacts = await store.userFacts(bob);

      expect(await store.forgetUser(alice)).toStrictEqual({
        sessions: 3,
        messages: storedMessages(aliceBefore),
        facts: 2,
      });
      for (const snapshot of aliceBefore) {
        await expectGone(
          store,
          snapshot.sessionId,
          snapshot.summaries.map((r) => r.id),
        );
      }
      expect(await store.userFacts(alice)).toStrictEqual({ userId: alice, version: 0, facts: [] });
      expect((await listAll(store, 2, alice)).flat()).toStrictEqual([]);
      expect((await listAll(store, 2)).flat().sort()).toStrictEqual([...ofBob, unbound].sort());
      expect(await exportAll(store, [...ofBob, unbound])).toStrictEqual(othersBefore);
      expect(await store.userFacts(bob)).toStrictEqual(bobFacts);
    });

    it('counts active and archived messages of the removed sessions', async () => {
      const store = await stores.open();
      const user = uniqueId('counted');
      const id = uniqueId('session');
      await appendAs(store, id, user, 6);
      await store.compact(id, await planCompaction(store, id, 4));
      // Active: the summary and 2 messages; archived: 4.
      expect(await store.forgetUser(user)).toStrictEqual({ sessions: 1, messages: 7, facts: 0 });
    });

    it('forgets idempotency keys: a re-append with an old key is applied anew', async () => {
      const store = await stores.open();
      const [user, id] = [uniqueId('keys'), uniqueId('session')];
      const messages = conversation(2);
      await store.append(id, messages, { idempotencyKey: 'the-key', userId: user });
      await store.forgetUser(user);
      const again = await store.append(id, messages, { idempotencyKey: 'the-key', userId: user });
      expect(again.duplicate).toBe(false);
      expect((await store.read(id)).messages.map((m) => m.id)).toStrictEqual(
        messages.map((m) => m.id),
      );
      expect((await store.export(id))?.idempotencyKeys.map((k) => k.key)).toStrictEqual([
        'the-key',
      ]);
    });

    it('is idempotent: a second run removes nothing and returns zeros', async () => {
      const store = await stores.open();
      const user = uniqueId('twice');
      await userWithData(store, user);
      const first = await store.forgetUser(user);
      expect(first.sessions).toBe(3);
      expect(await store.forgetUser(user)).toStrictEqual({ sessions: 0, messages: 0, facts: 0 });
      expect(await store.forgetUser(uniqueId('never-seen'))).toStrictEqual({
        sessions: 0,
        messages: 0,
        facts: 0,
      });
    });

    it('never removes a session that belongs to someone else now, whatever it was before', async () => {
      const store = await stores.open();
      const [alice, bob] = [uniqueId('alice'), uniqueId('bob')];
      const ofAlice = uniqueId('alice-session');
      await appendAs(store, ofAlice, alice);
      // Cleared, then bound to Bob.
      const reused = uniqueId('reused');
      await appendAs(store, reused, alice);
      await store.clear(reused);
      await appendAs(store, reused, bob);
      // Alice's, then replaced by an import of Bob's session.
      const imported = uniqueId('imported');
      await appendAs(store, imported, alice);
      const bobsSnapshot = (await store.export(reused))!;
      await store.import({
        ...bobsSnapshot,
        sessionId: imported,
        info: { ...bobsSnapshot.info, id: imported },
      });
      // Alice's, then replaced by an import without a user.
      const unbound = uniqueId('unbound');
      await appendAs(store, unbound, alice);
      const { userId: _alice, ...unboundInfo } = (await store.export(unbound))!.info;
      await store.import({ ...(await store.export(unbound))!, info: unboundInfo });

      const before = await exportAll(store, [ofAlice, reused, imported, unbound]);
      expect(await store.forgetUser(bob)).toMatchObject({ sessions: 2 });
      expect(await store.info(reused)).toBeNull();
      expect(await store.info(imported)).toBeNull();
      expect(await exportAll(store, [ofAlice, unbound])).toStrictEqual([before[0], before[3]]);
      expect(await store.forgetUser(alice)).toMatchObject({ sessions: 1 });
      expect(await store.export(unbound)).toStrictEqual(before[3]);
    });

    it('forgets only inside its own namespace', async () => {
      const [a, b] = [await stores.open(), await stores.open()];
      const user = uniqueId('tenant-user');
      await userWithData(a, user);
      const inB = await userWithData(b, user);
      const bBefore = await exportAll(b, inB);
      const bFacts = await b.userFacts(user);
      expect((await a.forgetUser(user)).sessions).toBe(3);
      expect(await exportAll(b, inB)).toStrictEqual(bBefore);
      expect(await b.userFacts(user)).toStrictEqual(bFacts);
      expect((await listAll(b, undefined, user)).flat().sort()).toStrictEqual([...inB].sort());
    });

    it('lets the user start again afterwards: new sessions bind, facts start at version 0', async () => {
      const store = await stores.open();
      const user = uniqueId('again');
      const [old] = await userWithData(store, user);
      await store.forgetUser(user);
      const other = uniqueId('other');
      await appendAs(store, old!, other);
      expect((await store.info(old!))?.userId).toBe(other);
      const fresh = uniqueId('fresh');
      await appendAs(store, fresh, user);
      expect((await listAll(store, undefined, user)).flat()).toStrictEqual([fresh]);
      const facts = [userFact('new start')];
      expect(await store.writeUserFacts(user, { expectedVersion: 0, facts })).toStrictEqual({
        version: 1,
      });
    });

    it('forgets many sessions of a user among many of others', async () => {
      const store = await stores.open();
      const [many, others] = [uniqueId('many'), uniqueId('others')];
      const mine = Array.from({ length: 40 }, (_, i) => uniqueId(`mine-${i}`));
      const theirs = Array.from({ length: 15 }, (_, i) => uniqueId(`theirs-${i}`));
      for (let i = 0; i < mine.length; i++) {
        await appendAs(store, mine[i]!, many, 1);
        if (i < theirs.length) await appendAs(store, theirs[i]!, others, 1);
      }
      const theirsBefore = await exportAll(store, theirs);
      expect(await store.forgetUser(many)).toStrictEqual({
        sessions: 40,
        messages: 40,
        facts: 0,
      });
      expect((await listAll(store, 7)).flat().sort()).toStrictEqual([...theirs].sort());
      expect(await exportAll(store, theirs)).toStrictEqual(theirsBefore);
    });

    it('refuses an invalid userId, naming the field', async () => {
      const store = await stores.open();
      for (const userId of ['', 'a\udfff', 'new\nline', 'u'.repeat(513), 12, undefined]) {
        await expectMemError(store.forgetUser(userId as never), 'MEM_VALIDATION', 'userId');
      }
    });
  });
}
