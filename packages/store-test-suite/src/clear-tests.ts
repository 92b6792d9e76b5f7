import { describe, expect, it } from 'vitest';
import {
  append,
  conversation,
  expectMemError,
  numbered,
  planCompaction,
  uniqueId,
} from './fixtures.ts';
import { useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Clear: the session and everything linked to it go; stale writers cannot resurrect it. */
export function clearTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('clear', () => {
    const stores = useStores(createStore, options);

    it('removes the session with its archive and summaries, and reports whether it existed', async () => {
      const store = await stores.open();
      const id = uniqueId('clear');
      const other = uniqueId('keep');
      await append(store, id, conversation(4));
      const plan = await planCompaction(store, id, 2);
      await store.compact(id, plan);
      const kept = conversation(2);
      await append(store, other, kept);
      expect(await store.clear(id)).toBe(true);
      expect(await store.info(id)).toBeNull();
      expect((await store.read(id)).messages).toStrictEqual([]);
      expect(await store.summaries(id)).toStrictEqual([]);
      expect(await store.archived(id, plan.summary.id)).toStrictEqual([]);
      expect(await store.export(id)).toBeNull();
      expect((await store.list()).sessionIds).toStrictEqual([other]);
      expect(await store.clear(id)).toBe(false);
      expect(await store.clear(uniqueId('never'))).toBe(false);
      expect((await store.read(other)).messages).toStrictEqual(numbered(kept, 1));
    });

    it('starts a fresh conversation after clear, with ids free again', async () => {
      const store = await stores.open();
      const id = uniqueId('clear-again');
      const messages = conversation(3);
      await append(store, id, messages);
      await store.clear(id);
      const result = await append(store, id, messages);
      expect(result.duplicate).toBe(false);
      const read = await store.read(id);
      expect(read.messages.map((m) => m.id)).toStrictEqual(messages.map((m) => m.id));
      expect(await store.summaries(id)).toStrictEqual([]);
    });

    it('never lets a write planned before the clear land in the new conversation', async () => {
      const store = await stores.open();
      const id = uniqueId('clear-stale');
      await append(store, id, conversation(6));
      const before = await store.info(id);
      const staleCompaction = await planCompaction(store, id, 3);
      const staleEpoch = staleCompaction.expectedEpoch;
      await store.clear(id);
      const after = await append(store, id, conversation(6));
      expect(after.firstSeq).toBeGreaterThan(before!.lastSeq);
      expect(after.version).toBeGreaterThan(before!.version);
      expect(after.epoch).toBeGreaterThan(before!.epoch);
      const moved = after.firstSeq + 2;
      const stale = {
        ...staleCompaction,
        throughSeq: moved,
        record: { ...staleCompaction.record, fromSeq: after.firstSeq, throughSeq: moved },
      };
      await expectMemError(store.compact(id, stale), 'MEM_STORE_CONFLICT');
      await expectMemError(
        store.erase(id, { expectedEpoch: staleEpoch, throughSeq: moved }),
        'MEM_STORE_CONFLICT',
      );
      await expectMemError(
        store.replace(id, { expectedVersion: before!.version, messages: [] }),
        'MEM_STORE_CONFLICT',
      );
      expect((await store.read(id)).messages).toHaveLength(6);
      expect(await store.summaries(id)).toStrictEqual([]);
    });
  });
}
