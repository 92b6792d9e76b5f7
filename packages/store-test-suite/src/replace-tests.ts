import { describe, expect, it } from 'vitest';
import {
  append,
  conversation,
  expectMemError,
  numbered,
  planCompaction,
  sumTokens,
  textMessage,
  uniqueId,
} from './fixtures.ts';
import { useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Replace: the session becomes exactly the given conversation. */
export function replaceTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('replace', () => {
    const stores = useStores(createStore, options);

    it('replaces the active messages, drops archive and summaries, numbers after lastSeq', async () => {
      const store = await stores.open();
      const id = uniqueId('flush');
      await append(store, id, conversation(5));
      const plan = await planCompaction(store, id, 3);
      await store.compact(id, plan);
      const fresh = conversation(2, 'fresh');
      expect(await store.replace(id, { messages: fresh })).toStrictEqual({
        version: 3,
        epoch: 2,
        firstSeq: 6,
        lastSeq: 7,
        duplicate: false,
      });
      expect(await store.read(id)).toStrictEqual({
        version: 3,
        epoch: 2,
        messages: numbered(fresh, 6),
      });
      expect(await store.summaries(id)).toStrictEqual([]);
      expect(await store.archived(id, plan.summary.id)).toStrictEqual([]);
      expect(await store.info(id)).toMatchObject({
        lastSeq: 7,
        messageCount: 2,
        tokenCount: sumTokens(fresh),
      });
      expect(await append(store, id, conversation(1))).toMatchObject({ firstSeq: 8, epoch: 2 });
    });

    it('accepts the ids of the messages it replaces (the same conversation sent again)', async () => {
      const store = await stores.open();
      const id = uniqueId('flush-same');
      const messages = conversation(4);
      await append(store, id, messages);
      await store.compact(id, await planCompaction(store, id, 2));
      const again = [...messages, textMessage('one more')];
      expect(await store.replace(id, { messages: again })).toMatchObject({
        firstSeq: 5,
        lastSeq: 9,
      });
      expect((await store.read(id)).messages).toStrictEqual(numbered(again, 5));
    });

    it('is a compare-and-swap when expectedVersion is given', async () => {
      const store = await stores.open();
      const id = uniqueId('flush-cas');
      await append(store, id, conversation(2));
      const { version } = await store.read(id);
      await append(store, id, conversation(1));
      const error = await expectMemError(
        store.replace(id, { expectedVersion: version, messages: conversation(1) }),
        'MEM_STORE_CONFLICT',
      );
      expect(error).toMatchObject({ counter: 'version', expected: version, actual: version + 1 });
      expect(error.message).toContain(`at version ${version + 1}`);
      expect((await store.read(id)).messages).toHaveLength(3);
      const current = (await store.read(id)).version;
      const result = await store.replace(id, {
        expectedVersion: current,
        messages: conversation(1),
      });
      expect(result.version).toBe(current + 1);
    });

    it('creates a missing session (expectedVersion 0 matches it)', async () => {
      const store = await stores.open();
      const id = uniqueId('flush-new');
      const messages = conversation(3);
      expect(await store.replace(id, { expectedVersion: 0, messages })).toStrictEqual({
        version: 1,
        epoch: 1,
        firstSeq: 1,
        lastSeq: 3,
        duplicate: false,
      });
      expect((await store.read(id)).messages).toStrictEqual(numbered(messages, 1));
      await expectMemError(
        store.replace(uniqueId('flush-new'), { expectedVersion: 2, messages }),
        'MEM_STORE_CONFLICT',
      );
    });

    it('empties the session with an empty list, keeping it and its counters', async () => {
      const store = await stores.open();
      const id = uniqueId('flush-empty');
      await append(store, id, conversation(3));
      expect(await store.replace(id, { messages: [] })).toStrictEqual({
        version: 2,
        epoch: 1,
        firstSeq: 4,
        lastSeq: 3,
        duplicate: false,
      });
      expect(await store.info(id)).toMatchObject({ messageCount: 0, tokenCount: 0, lastSeq: 3 });
      expect(await append(store, id, conversation(1))).toMatchObject({ firstSeq: 4 });
    });

    it('rejects ids repeated in the new conversation and changes nothing', async () => {
      const store = await stores.open();
      const id = uniqueId('flush-dup');
      const messages = conversation(2);
      await append(store, id, messages);
      const a = textMessage('a');
      await expectMemError(
        store.replace(id, { messages: [a, textMessage('b', { id: a.id })] }),
        'MEM_VALIDATION',
        'messages[1].id',
      );
      expect(await store.read(id)).toStrictEqual({
        version: 1,
        epoch: 0,
        messages: numbered(messages, 1),
      });
    });
  });
}
