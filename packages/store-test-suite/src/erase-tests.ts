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

/** Erase: a prefix removed for good, guarded by the epoch. */
export function eraseTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('erase', () => {
    const stores = useStores(createStore, options);

    it('deletes the prefix for good, without archiving it', async () => {
      const store = await stores.open();
      const id = uniqueId('erase');
      const messages = conversation(6);
      await append(store, id, messages);
      expect(await store.erase(id, { expectedEpoch: 0, throughSeq: 3 })).toStrictEqual({
        version: 2,
        epoch: 1,
        erasedCount: 3,
      });
      expect(await store.read(id)).toStrictEqual({
        version: 2,
        epoch: 1,
        messages: numbered(messages, 1).slice(3),
      });
      expect(await store.info(id)).toMatchObject({
        lastSeq: 6,
        messageCount: 3,
        tokenCount: sumTokens(messages.slice(3)),
      });
      const snapshot = await store.export(id);
      expect(snapshot?.archived).toStrictEqual([]);
      expect(snapshot?.summaries).toStrictEqual([]);
      const text = JSON.stringify(snapshot);
      for (const gone of messages.slice(0, 3)) expect(text).not.toContain(gone.id);
    });

    it('keeps pinned messages (keepSeqs) active in place', async () => {
      const store = await stores.open();
      const id = uniqueId('erase-pinned');
      const messages = conversation(5);
      await append(store, id, messages);
      const { epoch } = await store.read(id);
      expect(
        await store.erase(id, { expectedEpoch: epoch, throughSeq: 3, keepSeqs: [1] }),
      ).toMatchObject({ erasedCount: 2 });
      const stored = numbered(messages, 1);
      expect((await store.read(id)).messages).toStrictEqual([stored[0], stored[3], stored[4]]);
      await expectMemError(
        store.erase(id, { expectedEpoch: epoch + 1, throughSeq: 4, keepSeqs: [4] }),
        'MEM_VALIDATION',
      );
    });

    it('forgets erased ids, and never reuses their seqs', async () => {
      const store = await stores.open();
      const id = uniqueId('erase-ids');
      const messages = conversation(3);
      await append(store, id, messages);
      await store.erase(id, { expectedEpoch: 0, throughSeq: 2 });
      const reused = textMessage('same id, new message', { id: messages[0]!.id });
      expect(await append(store, id, [reused])).toMatchObject({ firstSeq: 4, lastSeq: 4 });
      expect((await store.read(id)).messages.map((m) => m.seq)).toStrictEqual([3, 4]);
    });

    it('erases a summary together with its archived originals and its record', async () => {
      const store = await stores.open();
      const id = uniqueId('erase-summary');
      const messages = conversation(8);
      await append(store, id, messages);
      const first = await planCompaction(store, id, 3);
      await store.compact(id, first);
      const second = await planCompaction(store, id, 5);
      await store.compact(id, second);
      const { epoch } = await store.read(id);
      expect(await store.erase(id, { expectedEpoch: epoch, throughSeq: 6 })).toMatchObject({
        erasedCount: 2,
      });
      expect(await store.summaries(id)).toStrictEqual([]);
      expect(await store.archived(id, first.summary.id)).toStrictEqual([]);
      expect(await store.archived(id, second.summary.id)).toStrictEqual([]);
      expect((await store.read(id)).messages).toStrictEqual(numbered(messages, 1).slice(6));
      const text = JSON.stringify(await store.export(id));
      for (const gone of [...messages.slice(0, 6), first.summary, second.summary]) {
        expect(text).not.toContain(gone.id);
      }
    });

    it('commits at the planned epoch despite appends, and conflicts after a rewrite', async () => {
      const store = await stores.open();
      const id = uniqueId('erase-cas');
      await append(store, id, conversation(4));
      const { epoch } = await store.read(id);
      await append(store, id, conversation(2));
      expect(await store.erase(id, { expectedEpoch: epoch, throughSeq: 1 })).toMatchObject({
        epoch: epoch + 1,
        erasedCount: 1,
      });
      await expectMemError(
        store.erase(id, { expectedEpoch: epoch, throughSeq: 2 }),
        'MEM_STORE_CONFLICT',
      );
      const read = await store.read(id);
      expect(read.messages).toHaveLength(5);
      expect(read.version).toBe(3);
    });

    it('rejects a throughSeq outside the active messages and changes nothing', async () => {
      const store = await stores.open();
      const id = uniqueId('erase-range');
      await append(store, id, conversation(4));
      await store.erase(id, { expectedEpoch: 0, throughSeq: 2 });
      for (const throughSeq of [1, 5]) {
        await expectMemError(
          store.erase(id, { expectedEpoch: 1, throughSeq }),
          'MEM_VALIDATION',
          'throughSeq',
        );
      }
      const empty = uniqueId('erase-empty');
      await expectMemError(
        store.erase(empty, { expectedEpoch: 0, throughSeq: 1 }),
        'MEM_VALIDATION',
      );
      expect(await store.info(empty)).toBeNull();
      expect((await store.read(id)).messages.map((m) => m.seq)).toStrictEqual([3, 4]);
      expect((await store.info(id))?.version).toBe(2);
    });

    it('leaves an existing, empty session when everything is erased', async () => {
      const store = await stores.open();
      const id = uniqueId('erase-all');
      await append(store, id, conversation(3));
      expect(await store.erase(id, { expectedEpoch: 0, throughSeq: 3 })).toMatchObject({
        erasedCount: 3,
      });
      expect(await store.info(id)).toMatchObject({ messageCount: 0, tokenCount: 0, lastSeq: 3 });
      expect((await store.read(id)).messages).toStrictEqual([]);
    });
  });
}
