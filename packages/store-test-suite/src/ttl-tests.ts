import { describe, expect, it } from 'vitest';
import { append, conversation, numbered, uniqueId } from './fixtures.ts';
import { useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/**
 * TTL: a session expires `ttlMs` after its last write, and then reads as if it never existed.
 * Without `options.ttl` the store must say it has no TTL (`capabilities.ttl === false`).
 */
export function ttlTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('ttl', () => {
    const stores = useStores(createStore, options);
    const { ttl } = options;

    if (ttl === undefined) {
      it('declares no TTL capability', async () => {
        const store = await stores.open();
        expect(store.capabilities.ttl).toBe(false);
      });
      return;
    }
    const ttlMs = ttl.ttlMs ?? 1_000;

    it('declares the TTL capability', async () => {
      const store = await stores.openWithTtl();
      expect(store.capabilities.ttl).toBe(true);
    });

    it('expires a session ttlMs after its last write; then it never existed', async () => {
      const store = await stores.openWithTtl();
      const [id, fresh] = [uniqueId('expires'), uniqueId('fresh')];
      await append(store, id, conversation(3));
      await ttl.advance(ttlMs * 0.5);
      expect((await store.read(id)).messages).toHaveLength(3);
      await append(store, fresh, conversation(1));
      await ttl.advance(ttlMs * 0.7);
      expect(await store.info(id)).toBeNull();
      expect(await store.read(id)).toStrictEqual({ version: 0, epoch: 0, messages: [] });
      expect(await store.export(id)).toBeNull();
      expect(await store.summaries(id)).toStrictEqual([]);
      expect((await store.list()).sessionIds).toStrictEqual([fresh]);
      const again = conversation(1);
      expect(await append(store, id, again)).toStrictEqual({
        version: 1,
        epoch: 0,
        firstSeq: 1,
        lastSeq: 1,
        duplicate: false,
      });
      expect((await store.read(id)).messages).toStrictEqual(numbered(again, 1));
    });

    it('extends the TTL on every write, not on reads', async () => {
      const store = await stores.openWithTtl();
      const [written, readOnly] = [uniqueId('written'), uniqueId('read-only')];
      await append(store, written, conversation(1));
      await append(store, readOnly, conversation(1));
      await ttl.advance(ttlMs * 0.6);
      await append(store, written, conversation(1));
      expect(await store.info(readOnly)).not.toBeNull();
      expect((await store.read(readOnly)).messages).toHaveLength(1);
      await ttl.advance(ttlMs * 0.6);
      expect(await store.info(readOnly)).toBeNull();
      expect((await store.info(written))?.messageCount).toBe(2);
      await ttl.advance(ttlMs * 0.6);
      expect(await store.info(written)).toBeNull();
    });

    it('forgets expired idempotency keys with the session', async () => {
      const store = await stores.openWithTtl();
      const id = uniqueId('expired-keys');
      await store.append(id, conversation(1), { idempotencyKey: 'k' });
      await ttl.advance(ttlMs * 1.2);
      const result = await store.append(id, conversation(2), { idempotencyKey: 'k' });
      expect(result).toMatchObject({ duplicate: false, firstSeq: 1, lastSeq: 2 });
    });
  });
}
