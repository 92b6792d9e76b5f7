import { describe, expect, it } from 'vitest';
import { append, conversation, expectMemError, listAll, uniqueId } from './fixtures.ts';
import { useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Listing: every session of the namespace exactly once, page by page, in a stable order. */
export function listTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('list', () => {
    const stores = useStores(createStore, options);

    it('lists nothing in an empty namespace', async () => {
      const store = await stores.open();
      expect(await store.list()).toStrictEqual({ sessionIds: [] });
    });

    it('pages through every session exactly once, in the same order each time', async () => {
      const store = await stores.open();
      const ids = Array.from({ length: 23 }, (_, i) => uniqueId(`list-${i}`));
      for (const id of ids) await append(store, id, conversation(1));
      const pages = await listAll(store, 5);
      const listed = pages.flat();
      expect(listed).toHaveLength(ids.length);
      expect(new Set(listed)).toStrictEqual(new Set(ids));
      expect((await listAll(store, 5)).flat()).toStrictEqual(listed);
      expect((await listAll(store)).flat().sort()).toStrictEqual([...ids].sort());
    });

    it('excludes cleared sessions and keeps emptied ones', async () => {
      const store = await stores.open();
      const [gone, emptied, kept] = [uniqueId('gone'), uniqueId('emptied'), uniqueId('kept')];
      for (const id of [gone, emptied, kept]) await append(store, id, conversation(2));
      await store.clear(gone);
      await store.erase(emptied, { expectedEpoch: 0, throughSeq: 2 });
      expect((await listAll(store, 2)).flat().sort()).toStrictEqual([emptied, kept].sort());
    });

    it('never repeats a session, nor skips one that existed throughout, while sessions change', async () => {
      const store = await stores.open();
      const ids = Array.from({ length: 12 }, (_, i) => uniqueId(`stable-${i}`));
      for (const id of ids) await append(store, id, conversation(1));
      const first = await store.list({ limit: 4 });
      expect(first.cursor).toBeTypeOf('string');
      const unseen = ids.filter((id) => !first.sessionIds.includes(id));
      await store.clear(unseen[0]!);
      const added = Array.from({ length: 5 }, (_, i) => uniqueId(`added-${i}`));
      for (const id of added) await append(store, id, conversation(1));
      const rest: string[] = [];
      let cursor = first.cursor;
      for (let pages = 0; cursor !== undefined; pages++) {
        expect(pages, 'list keeps returning a cursor').toBeLessThan(100);
        const page = await store.list({ cursor, limit: 4 });
        rest.push(...page.sessionIds);
        cursor = page.cursor;
      }
      const listed = [...first.sessionIds, ...rest];
      expect(new Set(listed).size).toBe(listed.length);
      for (const id of ids.filter((id) => id !== unseen[0])) expect(listed).toContain(id);
      expect(listed).not.toContain(unseen[0]);
    });

    it('rejects a cursor it did not make and a limit below 1', async () => {
      const store = await stores.open();
      await append(store, uniqueId('one'), conversation(1));
      await expectMemError(store.list({ cursor: 'not a cursor' }), 'MEM_VALIDATION', 'cursor');
      await expectMemError(store.list({ limit: 0 }), 'MEM_VALIDATION', 'limit');
    });
  });
}
