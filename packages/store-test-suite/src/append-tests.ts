import { describe, expect, it } from 'vitest';
import {
  append,
  conversation,
  expectMemError,
  numbered,
  planCompaction,
  textMessage,
  uniqueId,
} from './fixtures.ts';
import { useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Appends: empty batches, unique ids, and idempotency keys. */
export function appendTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('append and idempotency', () => {
    const stores = useStores(createStore, options);

    it('rejects an empty batch and writes nothing', async () => {
      const store = await stores.open();
      const id = uniqueId('empty');
      await expectMemError(append(store, id, []), 'MEM_VALIDATION', 'messages');
      expect(await store.info(id)).toBeNull();
    });

    it('returns the first result for a retried key and adds nothing', async () => {
      const store = await stores.open();
      const id = uniqueId('retry');
      const batch = conversation(2);
      await append(store, id, conversation(1));
      const first = await store.append(id, batch, { idempotencyKey: 'k-1' });
      expect(first).toStrictEqual({
        version: 2,
        epoch: 0,
        firstSeq: 2,
        lastSeq: 3,
        duplicate: false,
      });
      await append(store, id, conversation(1));
      const retry = await store.append(id, batch, { idempotencyKey: 'k-1' });
      expect(retry).toStrictEqual({ ...first, duplicate: true });
      const read = await store.read(id);
      expect(read.messages).toHaveLength(4);
      expect(read.version).toBe(3);
    });

    it('treats the key, not the content, as the identity of an append', async () => {
      const store = await stores.open();
      const id = uniqueId('key-wins');
      const first = await store.append(id, conversation(2), { idempotencyKey: 'same' });
      const other = await store.append(id, conversation(3), { idempotencyKey: 'same' });
      expect(other).toStrictEqual({ ...first, duplicate: true });
      expect((await store.read(id)).messages).toHaveLength(2);
    });

    it('scopes keys to a session', async () => {
      const store = await stores.open();
      const [one, two] = [uniqueId('one'), uniqueId('two')];
      await store.append(one, conversation(1), { idempotencyKey: 'shared-key' });
      const result = await store.append(two, conversation(2), { idempotencyKey: 'shared-key' });
      expect(result.duplicate).toBe(false);
      expect((await store.read(two)).messages).toHaveLength(2);
    });

    it('remembers at least the last 1,024 keys of a session', async () => {
      const store = await stores.open();
      const id = uniqueId('window');
      const first = await store.append(id, [textMessage('k0')], { idempotencyKey: 'key-0' });
      for (let i = 1; i < 1_024; i++) {
        await store.append(id, [textMessage(`k${i}`)], { idempotencyKey: `key-${i}` });
      }
      const retry = await store.append(id, [textMessage('again')], { idempotencyKey: 'key-0' });
      expect(retry).toStrictEqual({ ...first, duplicate: true });
      expect((await store.info(id))?.messageCount).toBe(1_024);
    });

    it('keeps keys through compaction, erase and replace', async () => {
      const store = await stores.open();
      const id = uniqueId('keys-survive');
      const first = await store.append(id, conversation(4), { idempotencyKey: 'before' });
      await store.compact(id, await planCompaction(store, id, 2));
      expect(await store.append(id, conversation(4), { idempotencyKey: 'before' })).toStrictEqual({
        ...first,
        duplicate: true,
      });
      const { epoch } = await store.read(id);
      await store.erase(id, { expectedEpoch: epoch, throughSeq: 2 });
      await store.replace(id, { messages: conversation(2) });
      expect(await store.append(id, conversation(4), { idempotencyKey: 'before' })).toStrictEqual({
        ...first,
        duplicate: true,
      });
      expect((await store.read(id)).messages).toHaveLength(2);
    });

    it('rejects ids repeated inside a batch, naming the message', async () => {
      const store = await stores.open();
      const id = uniqueId('dup-in-batch');
      const a = textMessage('a');
      const b = textMessage('b', { id: a.id });
      await expectMemError(append(store, id, [a, b]), 'MEM_VALIDATION', 'messages[1].id');
      expect(await store.info(id)).toBeNull();
    });

    it('rejects ids already in the session, naming the message, and writes nothing', async () => {
      const store = await stores.open();
      const id = uniqueId('dup-in-session');
      const existing = conversation(2);
      await append(store, id, existing);
      const clash = [textMessage('new'), textMessage('again', { id: existing[1]!.id })];
      await expectMemError(append(store, id, clash), 'MEM_VALIDATION', 'messages[1].id');
      const read = await store.read(id);
      expect(read.version).toBe(1);
      expect(read.messages).toStrictEqual(numbered(existing, 1));
    });

    it('rejects ids of archived messages', async () => {
      const store = await stores.open();
      const id = uniqueId('dup-archived');
      const existing = conversation(3);
      await append(store, id, existing);
      const plan = await planCompaction(store, id, 2);
      await store.compact(id, plan);
      const reuseOriginal = [textMessage('x', { id: existing[0]!.id })];
      await expectMemError(append(store, id, reuseOriginal), 'MEM_VALIDATION', 'messages[0].id');
      const reuseSummary = [textMessage('y'), textMessage('z', { id: plan.summary.id })];
      await expectMemError(append(store, id, reuseSummary), 'MEM_VALIDATION', 'messages[1].id');
      expect((await store.info(id))?.messageCount).toBe(2);
    });
  });
}
