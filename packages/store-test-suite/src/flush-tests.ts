import type { Store } from '@mem/core/backend';
import { describe, expect, it } from 'vitest';
import {
  append,
  conversation,
  expectMemError,
  planCompaction,
  textMessage,
  uniqueId,
} from './fixtures.ts';
import { freshNamespace, useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Six messages, compacted twice (the second summary folds the first): 2 records, 5 archived. */
async function twiceCompacted(store: Store, id: string) {
  await append(store, id, conversation(6));
  await store.compact(id, await planCompaction(store, id, 4));
  await append(store, id, conversation(2, 'later'));
  await store.compact(id, await planCompaction(store, id, 5));
  return (await store.export(id))!;
}

/** Flush: the stored session becomes exactly its active messages (FLUSH persistence). */
export function flushTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('flush', () => {
    const stores = useStores(createStore, options);

    it('drops every archive and summary record, keeping the active messages, their seqs, the keys and the totals', async () => {
      const store = await stores.open();
      const id = uniqueId('flush');
      const before = await twiceCompacted(store, id);
      expect(before.summaries).toHaveLength(2);
      expect(before.archived).toHaveLength(6);
      const { version, epoch } = before.info;

      const result = await store.flush(id, { expectedEpoch: epoch });
      expect(result).toStrictEqual({
        version: version + 1,
        epoch: epoch + 1,
        droppedMessages: 6,
        droppedSummaries: 2,
      });
      const after = (await store.export(id))!;
      expect(after.messages).toStrictEqual(before.messages);
      expect(after.archived).toStrictEqual([]);
      expect(after.summaries).toStrictEqual([]);
      expect(after.idempotencyKeys).toStrictEqual(before.idempotencyKeys);
      expect(after.info).toStrictEqual({
        ...before.info,
        version: version + 1,
        epoch: epoch + 1,
        updatedAt: after.info.updatedAt,
      });
      expect(await store.summaries(id)).toStrictEqual([]);
      for (const record of before.summaries)
        expect(await store.archived(id, record.id)).toEqual([]);
      expect(await store.read(id)).toStrictEqual({
        version: version + 1,
        epoch: epoch + 1,
        messages: before.messages,
      });
    });

    it('changes nothing when there is nothing to drop: an unknown, never compacted, flushed or cleared session', async () => {
      const store = await stores.open();
      const none = { droppedMessages: 0, droppedSummaries: 0 };
      const unknown = uniqueId('flush-unknown');
      expect(await store.flush(unknown, { expectedEpoch: 0 })).toStrictEqual({
        version: 0,
        epoch: 0,
        ...none,
      });
      expect(await store.info(unknown)).toBeNull();
      expect(await store.list()).toStrictEqual({ sessionIds: [] });

      const plain = uniqueId('flush-plain');
      await append(store, plain, conversation(3));
      const before = await store.export(plain);
      expect(await store.flush(plain, { expectedEpoch: 0 })).toStrictEqual({
        version: 1,
        epoch: 0,
        ...none,
      });
      expect(await store.export(plain)).toStrictEqual(before);

      const flushed = uniqueId('flush-twice');
      const { info } = await twiceCompacted(store, flushed);
      await store.flush(flushed, { expectedEpoch: info.epoch });
      const once = await store.export(flushed);
      expect(await store.flush(flushed, { expectedEpoch: info.epoch + 1 })).toStrictEqual({
        version: info.version + 1,
        epoch: info.epoch + 1,
        ...none,
      });
      expect(await store.export(flushed)).toStrictEqual(once);

      await store.clear(plain);
      expect(await store.flush(plain, { expectedEpoch: 1 })).toStrictEqual({
        version: 2,
        epoch: 1,
        ...none,
      });
      expect(await store.info(plain)).toBeNull();
    });

    it('commits only at the expected epoch: after a compaction won, it fails with a conflict and drops nothing', async () => {
      const store = await stores.open();
      const id = uniqueId('flush-cas');
      const { info } = await twiceCompacted(store, id);
      await append(store, id, conversation(2, 'more'));
      await store.compact(id, await planCompaction(store, id, 9));
      const before = await store.export(id);
      const error = await expectMemError(
        store.flush(id, { expectedEpoch: info.epoch }),
        'MEM_STORE_CONFLICT',
      );
      expect(error.message).toContain('epoch');
      expect(await store.export(id)).toStrictEqual(before);
      // Appends leave the epoch alone: they never make a flush conflict.
      await append(store, id, conversation(1, 'after'));
      expect((await store.flush(id, { expectedEpoch: info.epoch + 1 })).droppedSummaries).toBe(3);
    });

    it('makes a compaction planned before it fail with a conflict, and the session compacts again after it', async () => {
      const store = await stores.open();
      const id = uniqueId('flush-replan');
      const { info, messages } = await twiceCompacted(store, id);
      const stale = await planCompaction(store, id, 7);
      await store.flush(id, { expectedEpoch: info.epoch });
      await expectMemError(store.compact(id, stale), 'MEM_STORE_CONFLICT');

      // Planned afresh: the flushed summary has no record, so it is archived like any message.
      const plan = await planCompaction(store, id, 7);
      expect(plan.record.previousSummaryId).toBeUndefined();
      await store.compact(id, plan);
      expect((await store.archived(id, plan.summary.id)).map((m) => m.id)).toStrictEqual(
        messages.filter((m) => m.seq <= 7).map((m) => m.id),
      );
      expect(await store.summaries(id)).toStrictEqual([plan.record]);
      const again = await store.flush(id, { expectedEpoch: info.epoch + 2 });
      expect(again).toMatchObject({ droppedMessages: 3, droppedSummaries: 1 });
      expect(await store.summaries(id)).toStrictEqual([]);
    });

    it('frees the ids of the dropped originals but keeps every idempotency key applied', async () => {
      const store = await stores.open();
      const id = uniqueId('flush-ids');
      const [first, second, third] = conversation(3);
      const firstAppend = await store.append(id, [first!, second!], { idempotencyKey: 'k1' });
      await store.append(id, [third!], { idempotencyKey: 'k2' });
      await store.compact(id, await planCompaction(store, id, 2));
      const { epoch } = (await store.info(id))!;
      await expectMemError(append(store, id, [{ ...first! }]), 'MEM_VALIDATION', 'messages[0].id');
      await store.flush(id, { expectedEpoch: epoch });
      expect(await store.append(id, [first!, second!], { idempotencyKey: 'k1' })).toStrictEqual({
        ...firstAppend,
        duplicate: true,
      });
      const reused = await append(store, id, [{ ...first! }]);
      expect(reused).toMatchObject({ firstSeq: 4, duplicate: false });
      const active = (await store.read(id)).messages.map((m) => m.id);
      expect(active.slice(1)).toStrictEqual([third!.id, first!.id]);
      // An active message's id stays taken.
      await expectMemError(append(store, id, [{ ...third! }]), 'MEM_VALIDATION', 'messages[0].id');
    });

    it('never touches appends racing it from another connection', async () => {
      const namespace = freshNamespace();
      const [flusher, writer] = [await stores.open(namespace), await stores.open(namespace)];
      const id = uniqueId('flush-race');
      const missing: string[] = [];
      for (let round = 0; round < 5; round++) {
        const acked: string[] = [];
        await append(writer, id, conversation(4, `round ${round}`));
        const { messages } = await flusher.read(id);
        await flusher.compact(id, await planCompaction(flusher, id, messages.at(-2)!.seq));
        const { epoch } = (await flusher.info(id))!;
        await Promise.all([
          (async () => {
            for (let i = 0; i < 6; i++) {
              const message = textMessage(`racer ${round}.${i}`);
              await append(writer, id, [message]);
              acked.push(message.id);
            }
          })(),
          flusher.flush(id, { expectedEpoch: epoch }),
        ]);
        // The next round's compaction summarizes them; right after the flush all are active.
        const active = new Set((await writer.read(id)).messages.map((m) => m.id));
        missing.push(...acked.filter((m) => !active.has(m)));
      }
      expect(missing).toStrictEqual([]);
      const snapshot = (await writer.export(id))!;
      expect(snapshot.archived).toStrictEqual([]);
      expect(snapshot.summaries).toStrictEqual([]);
      expect(snapshot.info.messageCount).toBe(snapshot.messages.length);
      expect(snapshot.info.tokenCount).toBe(
        snapshot.messages.reduce((sum, m) => sum + m.tokenCount, 0),
      );
    });

    it('refuses a bad expectedEpoch or session id with MemValidationError, writing nothing', async () => {
      const store = await stores.open();
      const id = uniqueId('flush-bad');
      const { info } = await twiceCompacted(store, id);
      await expectMemError(store.flush(id, undefined as never), 'MEM_VALIDATION');
      for (const bad of [
        {},
        { expectedEpoch: -1 },
        { expectedEpoch: 1.5 },
        { expectedEpoch: '2' },
      ]) {
        await expectMemError(store.flush(id, bad as never), 'MEM_VALIDATION', 'expectedEpoch');
      }
      for (const bad of ['', 'a\u0000b', '\ud800', 42, null]) {
        await expectMemError(store.flush(bad as string, { expectedEpoch: 0 }), 'MEM_VALIDATION');
      }
      expect((await store.info(id))!.version).toBe(info.version);
    });
  });
}
