import type { StoredMessage } from '@mem/core/backend';
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
import { freshNamespace, useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Pop: the newest active message removed for good, atomically, never a summary. */
export function popTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('pop', () => {
    const stores = useStores(createStore, options);

    it('removes and returns the newest message, one at a time', async () => {
      const store = await stores.open();
      const id = uniqueId('pop');
      const messages = conversation(3);
      await append(store, id, messages);
      const stored = numbered(messages, 1);
      expect(await store.pop(id)).toStrictEqual({ version: 2, epoch: 1, message: stored[2] });
      expect(await store.pop(id)).toStrictEqual({ version: 3, epoch: 2, message: stored[1] });
      expect(await store.read(id)).toStrictEqual({ version: 3, epoch: 2, messages: [stored[0]] });
      expect(await store.info(id)).toMatchObject({
        version: 3,
        epoch: 2,
        lastSeq: 3,
        messageCount: 1,
        tokenCount: sumTokens(messages.slice(0, 1)),
      });
    });

    it('returns null and changes nothing on an unknown, empty or cleared session', async () => {
      const store = await stores.open();
      expect(await store.pop(uniqueId('pop-unknown'))).toStrictEqual({
        version: 0,
        epoch: 0,
        message: null,
      });
      expect(await store.list()).toStrictEqual({ sessionIds: [] });
      const id = uniqueId('pop-empty');
      await append(store, id, conversation(1));
      await store.pop(id);
      const before = await store.info(id);
      expect(await store.pop(id)).toStrictEqual({ version: 2, epoch: 1, message: null });
      expect(await store.info(id)).toStrictEqual(before);
      await append(store, id, conversation(1, 'again'));
      await store.clear(id);
      expect(await store.pop(id)).toStrictEqual({ version: 4, epoch: 2, message: null });
      expect(await store.info(id)).toBeNull();
    });

    it('never pops a summary: its originals and record stay', async () => {
      const store = await stores.open();
      const id = uniqueId('pop-summary');
      await append(store, id, conversation(4));
      await store.compact(id, await planCompaction(store, id, 4));
      const before = await store.export(id);
      const { version, epoch } = before!.info;
      expect(await store.pop(id)).toStrictEqual({ version, epoch, message: null });
      expect(await store.export(id)).toStrictEqual(before);
      // Messages after the summary pop as usual, the summary stays.
      const later = conversation(1, 'later');
      await append(store, id, later);
      expect((await store.pop(id)).message).toStrictEqual(numbered(later, 5)[0]);
      expect((await store.read(id)).messages.map((m) => m.id)).toStrictEqual([
        before!.messages[0]!.id,
      ]);
    });

    it('keeps the append key applied and frees the id, never reusing the seq', async () => {
      const store = await stores.open();
      const id = uniqueId('pop-keys');
      const [first, second] = conversation(2);
      await store.append(id, [first!], { idempotencyKey: 'k1' });
      const appended = await store.append(id, [second!], { idempotencyKey: 'k2' });
      await store.pop(id);
      expect(await store.append(id, [second!], { idempotencyKey: 'k2' })).toStrictEqual({
        ...appended,
        duplicate: true,
      });
      expect((await store.read(id)).messages).toHaveLength(1);
      const again = await store.append(id, [second!], { idempotencyKey: 'k3' });
      expect(again).toMatchObject({ firstSeq: 3, lastSeq: 3, duplicate: false });
      expect((await store.read(id)).messages.map((m) => [m.id, m.seq])).toStrictEqual([
        [first!.id, 1],
        [second!.id, 3],
      ]);
    });

    it('makes a compaction planned before it fail with a conflict', async () => {
      const store = await stores.open();
      const id = uniqueId('pop-cas');
      await append(store, id, conversation(4));
      const planned = await planCompaction(store, id, 4);
      await store.pop(id);
      await expectMemError(store.compact(id, planned), 'MEM_STORE_CONFLICT');
      expect((await store.read(id)).messages).toHaveLength(3);
    });

    it('loses nothing else under concurrent appends and pops', async () => {
      const namespace = freshNamespace();
      const instances = [await stores.open(namespace), await stores.open(namespace)];
      const id = uniqueId('pop-race');
      const appends = 30;
      const pops = 12;
      const popped: StoredMessage[] = [];
      await append(instances[0]!, id, conversation(pops, 'base'));
      await Promise.all([
        (async () => {
          for (let i = 0; i < appends; i++) {
            await append(instances[i % 2]!, id, [textMessage(`racer ${i}`)]);
          }
        })(),
        (async () => {
          for (let i = 0; i < pops; i++) {
            const { message } = await instances[(i + 1) % 2]!.pop(id);
            if (message !== null) popped.push(message);
          }
        })(),
      ]);
      const left = (await instances[0]!.read(id)).messages;
      expect(popped).toHaveLength(pops);
      expect(left).toHaveLength(pops + appends - pops);
      const ids = [...left, ...popped].map((m) => m.id);
      expect(new Set(ids).size).toBe(pops + appends);
      // Each pop took the newest at its moment: nothing left is newer than a message popped
      // after it was appended, and what is left is in seq order.
      const seqs = left.map((m) => m.seq);
      expect(seqs).toStrictEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(popped.map((m) => m.seq)).size).toBe(pops);
      const info = await instances[1]!.info(id);
      expect(info).toMatchObject({
        version: 1 + appends + pops,
        epoch: pops,
        lastSeq: pops + appends,
        messageCount: left.length,
        tokenCount: sumTokens(left),
      });
    });

    it('refuses bad session ids', async () => {
      const store = await stores.open();
      for (const bad of ['', 'a\u0000b', '\ud800', 42, null]) {
        await expectMemError(store.pop(bad as string), 'MEM_VALIDATION');
      }
    });
  });
}
