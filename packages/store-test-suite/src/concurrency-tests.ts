import type { AppendResult, CountedMessage } from '@mem/core/backend';
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
import { freshNamespace, useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Many writers at once inside one process: nothing lost, duplicated, split or reordered. */
export function concurrencyTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('concurrency', () => {
    const stores = useStores(createStore, options);
    const writers = options.concurrency?.writers ?? 8;
    const appendsPerWriter = options.concurrency?.appendsPerWriter ?? 25;

    it(`keeps ${writers} concurrent writers' batches whole, ordered and complete`, async () => {
      const namespace = freshNamespace();
      const instances = [await stores.open(namespace), await stores.open(namespace)];
      const id = uniqueId('many-writers');
      const batches: CountedMessage[][][] = [];
      const results: AppendResult[][] = [];
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          const store = instances[w % instances.length]!;
          batches[w] = [];
          results[w] = [];
          for (let i = 0; i < appendsPerWriter; i++) {
            const batch = conversation(1 + ((w + i) % 3), `w${w} b${i}`);
            batches[w]!.push(batch);
            results[w]!.push(await append(store, id, batch));
          }
        }),
      );
      const all = (await instances[0]!.read(id)).messages;
      const total = batches.flat(2).length;
      expect(all).toHaveLength(total);
      expect(all.map((m) => m.seq)).toStrictEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(new Set(all.map((m) => m.id)).size).toBe(total);
      const bySeq = new Map(all.map((m) => [m.seq, m]));
      for (let w = 0; w < writers; w++) {
        let previousLast = 0;
        results[w]!.forEach((result, i) => {
          const batch = batches[w]![i]!;
          expect(result.duplicate).toBe(false);
          expect(result.lastSeq - result.firstSeq + 1).toBe(batch.length);
          expect(result.firstSeq).toBeGreaterThan(previousLast);
          previousLast = result.lastSeq;
          const stored = batch.map((_, j) => bySeq.get(result.firstSeq + j));
          expect(stored).toStrictEqual(numbered(batch, result.firstSeq));
        });
      }
      const versions = results.flat().map((r) => r.version);
      expect(new Set(versions).size).toBe(writers * appendsPerWriter);
      expect((await instances[1]!.info(id))?.version).toBe(writers * appendsPerWriter);
    });

    it('applies a key once when the same append is retried concurrently', async () => {
      const store = await stores.open();
      const id = uniqueId('concurrent-retry');
      const batch = conversation(3);
      const results = await Promise.all(
        Array.from({ length: 6 }, () => store.append(id, batch, { idempotencyKey: 'once' })),
      );
      expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
      const applied = results.find((r) => !r.duplicate)!;
      for (const r of results) expect({ ...r, duplicate: false }).toStrictEqual(applied);
      expect((await store.read(id)).messages).toStrictEqual(numbered(batch, 1));
    });

    it('commits a compaction racing with appends and loses none of them', async () => {
      const store = await stores.open();
      const id = uniqueId('compact-vs-append');
      const start = conversation(8);
      await append(store, id, start);
      const plan = await planCompaction(store, id, 5);
      const extra = Array.from({ length: 6 }, (_, i) => [textMessage(`extra ${i}`)]);
      const [first, second, ...rest] = extra;
      const outcomes = await Promise.all([
        append(store, id, first!),
        store.compact(id, plan),
        append(store, id, second!),
        ...rest.map((batch) => append(store, id, batch)),
      ]);
      expect(outcomes[1]).toMatchObject({ summarySeq: 5, epoch: 1 });
      const read = await store.read(id);
      expect(read.messages[0]).toStrictEqual({ ...plan.summary, seq: 5 });
      const ids = read.messages.slice(1).map((m) => m.id);
      expect(ids.slice(0, 3)).toStrictEqual(start.slice(5).map((m) => m.id));
      expect(new Set(ids.slice(3))).toStrictEqual(new Set(extra.flat().map((m) => m.id)));
      expect(read.messages.map((m) => m.seq)).toStrictEqual([
        5,
        ...Array.from({ length: 9 }, (_, i) => i + 6),
      ]);
      expect((await store.archived(id, plan.summary.id)).map((m) => m.id)).toStrictEqual(
        start.slice(0, 5).map((m) => m.id),
      );
    });

    it('lets one of a racing compaction and erase win, never both', async () => {
      const store = await stores.open();
      const id = uniqueId('compact-vs-erase');
      await append(store, id, conversation(6));
      const plan = await planCompaction(store, id, 4);
      const outcomes = await Promise.allSettled([
        store.erase(id, { expectedEpoch: plan.expectedEpoch, throughSeq: 2 }),
        store.compact(id, plan),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const lost = outcomes.find((o) => o.status === 'rejected');
      await expectMemError(Promise.reject(lost?.reason), 'MEM_STORE_CONFLICT');
      expect((await store.read(id)).epoch).toBe(1);
    });

    it('keeps concurrent writes to different sessions apart', async () => {
      const store = await stores.open();
      const ids = Array.from({ length: 5 }, () => uniqueId('parallel'));
      await Promise.all(
        ids.flatMap((id, i) =>
          Array.from({ length: i + 1 }, () => append(store, id, conversation(2))),
        ),
      );
      const counts = await Promise.all(ids.map(async (id) => (await store.info(id))?.messageCount));
      expect(counts).toStrictEqual([2, 4, 6, 8, 10]);
    });
  });
}
