import { describe, expect, it } from 'vitest';
import { append, conversation, numbered, planCompaction, uniqueId } from './fixtures.ts';
import { freshNamespace, useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Namespaces (tenants): the same session id in two namespaces names two sessions. */
export function namespaceTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('namespaces', () => {
    const stores = useStores(createStore, options);

    it('isolates the same session id in two namespaces', async () => {
      const [a, b] = [await stores.open(), await stores.open()];
      const id = uniqueId('tenant-session');
      const [inA, inB] = [conversation(3, 'a'), conversation(2, 'b')];
      await a.append(id, inA, { idempotencyKey: 'same-key' });
      const inBResult = await b.append(id, inB, { idempotencyKey: 'same-key' });
      expect(inBResult).toMatchObject({ duplicate: false, firstSeq: 1, version: 1 });
      expect((await a.read(id)).messages).toStrictEqual(numbered(inA, 1));
      expect((await b.read(id)).messages).toStrictEqual(numbered(inB, 1));

      await a.compact(id, await planCompaction(a, id, 2));
      expect((await b.read(id)).epoch).toBe(0);
      expect(await b.summaries(id)).toStrictEqual([]);
      // Message ids are unique per session, and A's session is not B's.
      expect(await append(b, id, [{ ...inA[0]! }])).toMatchObject({ firstSeq: 3 });

      expect(await a.clear(id)).toBe(true);
      expect(await a.info(id)).toBeNull();
      expect((await b.info(id))?.messageCount).toBe(3);
    });

    it('lists only the sessions of its own namespace', async () => {
      const [a, b] = [await stores.open(), await stores.open()];
      const [onlyA, onlyB, both] = [uniqueId('only-a'), uniqueId('only-b'), uniqueId('both')];
      await append(a, onlyA, conversation(1));
      await append(b, onlyB, conversation(1));
      await append(a, both, conversation(1));
      await append(b, both, conversation(1));
      expect((await a.list()).sessionIds.sort()).toStrictEqual([onlyA, both].sort());
      expect((await b.list()).sessionIds.sort()).toStrictEqual([onlyB, both].sort());
    });

    it('shares sessions between stores opened on the same namespace', async () => {
      const namespace = freshNamespace();
      const [one, two] = [await stores.open(namespace), await stores.open(namespace)];
      const id = uniqueId('shared');
      const messages = conversation(2);
      await one.append(id, messages, { idempotencyKey: 'k' });
      expect((await two.read(id)).messages).toStrictEqual(numbered(messages, 1));
      expect((await two.append(id, messages, { idempotencyKey: 'k' })).duplicate).toBe(true);
      expect((await two.list()).sessionIds).toStrictEqual([id]);
    });
  });
}
