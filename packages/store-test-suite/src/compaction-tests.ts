import type { CompactInput } from '@mem/core/backend';
import { describe, expect, it } from 'vitest';
import {
  append,
  conversation,
  expectMemError,
  numbered,
  planCompaction,
  sumTokens,
  uniqueId,
} from './fixtures.ts';
import { useStores } from './harness.ts';
import type { StoreFactory, StoreSuiteOptions } from './suite-options.ts';

/** Compaction: archive + summary, compare-and-swap on the epoch, summaries of summaries. */
export function compactionTests(createStore: StoreFactory, options: StoreSuiteOptions = {}): void {
  describe('compaction and CAS', () => {
    const stores = useStores(createStore, options);

    it('replaces the prefix by the summary at seq throughSeq and archives the originals', async () => {
      const store = await stores.open();
      const id = uniqueId('compact');
      const messages = conversation(6);
      await append(store, id, messages);
      const plan = await planCompaction(store, id, 4);
      expect(await store.compact(id, plan)).toStrictEqual({ version: 2, epoch: 1, summarySeq: 4 });
      const stored = numbered(messages, 1);
      const summary = { ...plan.summary, seq: 4 };
      expect(await store.read(id)).toStrictEqual({
        version: 2,
        epoch: 1,
        messages: [summary, ...stored.slice(4)],
      });
      expect(await store.info(id)).toMatchObject({
        version: 2,
        epoch: 1,
        lastSeq: 6,
        messageCount: 3,
        tokenCount: plan.summary.tokenCount + sumTokens(messages.slice(4)),
      });
      expect(await store.summaries(id)).toStrictEqual([plan.record]);
      expect(await store.archived(id, plan.summary.id)).toStrictEqual(stored.slice(0, 4));
      expect((await store.read(id, { limit: 1, from: 'end' })).messages).toStrictEqual([stored[5]]);
    });

    it('keeps pinned messages (keepSeqs) active in place, neither summarized nor archived', async () => {
      const store = await stores.open();
      const id = uniqueId('compact-pinned');
      const messages = conversation(6);
      await append(store, id, messages);
      const plan = await planCompaction(store, id, 4, { keepSeqs: [1, 3] });
      expect(plan.record.originalMessageIds).toStrictEqual([messages[1]!.id, messages[3]!.id]);
      await store.compact(id, plan);
      const stored = numbered(messages, 1);
      expect((await store.read(id)).messages).toStrictEqual([
        stored[0],
        stored[2],
        { ...plan.summary, seq: 4 },
        ...stored.slice(4),
      ]);
      expect(await store.archived(id, plan.summary.id)).toStrictEqual([stored[1], stored[3]]);
      const bad = await planCompaction(store, id, 5, { keepSeqs: [5] });
      await expectMemError(store.compact(id, bad), 'MEM_VALIDATION');
    });

    it('commits at the planned epoch although appends happened meanwhile', async () => {
      const store = await stores.open();
      const id = uniqueId('compact-after-append');
      const messages = conversation(4);
      await append(store, id, messages);
      const plan = await planCompaction(store, id, 3);
      const later = conversation(2, 'later');
      await append(store, id, later);
      expect(await store.compact(id, plan)).toStrictEqual({ version: 3, epoch: 1, summarySeq: 3 });
      expect((await store.read(id)).messages).toStrictEqual([
        { ...plan.summary, seq: 3 },
        ...numbered([...messages, ...later], 1).slice(3),
      ]);
    });

    it('lets exactly one of two compactions planned at the same epoch win', async () => {
      const store = await stores.open();
      const id = uniqueId('compact-race');
      await append(store, id, conversation(6));
      const first = await planCompaction(store, id, 2);
      const second = await planCompaction(store, id, 4);
      await store.compact(id, first);
      const error = await expectMemError(store.compact(id, second), 'MEM_STORE_CONFLICT');
      expect(error.message).toContain(id);
      expect(error.message).toContain('epoch');
      expect(error).toMatchObject({
        counter: 'epoch',
        expected: second.expectedEpoch,
        actual: second.expectedEpoch + 1,
      });
      const read = await store.read(id);
      expect(read.version).toBe(2);
      expect(read.messages.map((m) => m.id)).not.toContain(second.summary.id);
      expect((await store.summaries(id)).map((r) => r.id)).toStrictEqual([first.summary.id]);
    });

    it('lets exactly one of two racing compactions win when started together', async () => {
      const store = await stores.open();
      const id = uniqueId('compact-race-together');
      await append(store, id, conversation(6));
      const plans = [await planCompaction(store, id, 3), await planCompaction(store, id, 5)];
      const outcomes = await Promise.allSettled(plans.map((plan) => store.compact(id, plan)));
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      expect(won).toHaveLength(1);
      const lost = outcomes.find((o) => o.status === 'rejected');
      await expectMemError(Promise.reject(lost?.reason), 'MEM_STORE_CONFLICT');
      const winner = plans[outcomes.indexOf(won[0]!)]!;
      expect((await store.summaries(id)).map((r) => r.id)).toStrictEqual([winner.summary.id]);
      expect((await store.read(id)).messages[0]?.id).toBe(winner.summary.id);
    });

    it('folds an earlier summary into a new one; both records and archives stay readable', async () => {
      const store = await stores.open();
      const id = uniqueId('resummarize');
      const messages = conversation(9);
      await append(store, id, messages.slice(0, 6));
      const firstPlan = await planCompaction(store, id, 4);
      await store.compact(id, firstPlan);
      await append(store, id, messages.slice(6));
      const secondPlan = await planCompaction(store, id, 8);
      expect(secondPlan.record.previousSummaryId).toBe(firstPlan.summary.id);
      expect(await store.compact(id, secondPlan)).toStrictEqual({
        version: 4,
        epoch: 2,
        summarySeq: 8,
      });
      const stored = numbered(messages, 1);
      const firstSummary = { ...firstPlan.summary, seq: 4 };
      expect((await store.read(id)).messages).toStrictEqual([
        { ...secondPlan.summary, seq: 8 },
        stored[8],
      ]);
      expect(await store.summaries(id)).toStrictEqual([firstPlan.record, secondPlan.record]);
      expect(await store.archived(id, secondPlan.summary.id)).toStrictEqual([
        firstSummary,
        ...stored.slice(4, 8),
      ]);
      expect(await store.archived(id, firstPlan.summary.id)).toStrictEqual(stored.slice(0, 4));
    });

    it('can compact the whole active log, and appends continue after lastSeq', async () => {
      const store = await stores.open();
      const id = uniqueId('compact-all');
      await append(store, id, conversation(3));
      const plan = await planCompaction(store, id, 3);
      await store.compact(id, plan);
      expect((await store.read(id)).messages).toStrictEqual([{ ...plan.summary, seq: 3 }]);
      const next = await append(store, id, conversation(1));
      expect(next).toMatchObject({ firstSeq: 4, lastSeq: 4, epoch: 1, version: 3 });
    });

    it('rejects a throughSeq outside the active messages and changes nothing', async () => {
      const store = await stores.open();
      const id = uniqueId('compact-range');
      await append(store, id, conversation(6));
      await store.compact(id, await planCompaction(store, id, 3));
      const before = await store.export(id);
      const plan = await planCompaction(store, id, 5);
      for (const throughSeq of [2, 7]) {
        const moved = withThroughSeq(plan, throughSeq);
        await expectMemError(store.compact(id, moved), 'MEM_VALIDATION', 'throughSeq');
      }
      const empty = uniqueId('compact-empty');
      const onEmpty = { ...withThroughSeq(plan, 1), expectedEpoch: 0 };
      await expectMemError(store.compact(empty, onEmpty), 'MEM_VALIDATION', 'throughSeq');
      expect(await store.export(id)).toStrictEqual(before);
      expect(await store.info(empty)).toBeNull();
    });

    it('rejects summaries and records that do not describe the compaction', async () => {
      const store = await stores.open();
      const id = uniqueId('compact-record');
      await append(store, id, conversation(5));
      const plan = await planCompaction(store, id, 3);
      const taken = (await store.read(id)).messages[4]!.id;
      const bad: CompactInput[] = [
        {
          ...plan,
          record: { ...plan.record, originalMessageIds: plan.record.originalMessageIds.slice(1) },
        },
        { ...plan, record: { ...plan.record, id: 'another-id' } },
        { ...plan, summary: { ...plan.summary, role: 'assistant' } },
        { ...plan, summary: { ...plan.summary, metadata: { kind: 'note' } } },
        { ...plan, summary: { ...plan.summary, id: taken }, record: { ...plan.record, id: taken } },
      ];
      for (const input of bad) await expectMemError(store.compact(id, input), 'MEM_VALIDATION');
      const read = await store.read(id);
      expect(read.version).toBe(1);
      expect(read.epoch).toBe(0);
      expect(await store.summaries(id)).toStrictEqual([]);
      await store.compact(id, plan);
      expect((await store.read(id)).epoch).toBe(1);
    });

    it('fails a compaction planned before an erase or a replace', async () => {
      const store = await stores.open();
      const id = uniqueId('compact-stale');
      await append(store, id, conversation(6));
      const stale = await planCompaction(store, id, 4);
      await store.erase(id, { expectedEpoch: stale.expectedEpoch, throughSeq: 1 });
      await expectMemError(store.compact(id, stale), 'MEM_STORE_CONFLICT');
      const again = await planCompaction(store, id, 4);
      await store.replace(id, { messages: conversation(6) });
      await expectMemError(store.compact(id, again), 'MEM_STORE_CONFLICT');
      expect(await store.summaries(id)).toStrictEqual([]);
    });

    it('returns copies of records and archived messages', async () => {
      const store = await stores.open();
      const id = uniqueId('compact-copies');
      await append(store, id, conversation(3));
      const plan = await planCompaction(store, id, 2);
      await store.compact(id, plan);
      plan.record.originalMessageIds.push('mutated');
      plan.summary.content = 'mutated';
      const records = await store.summaries(id);
      records[0]!.originalMessageIds.length = 0;
      const archived = await store.archived(id, plan.summary.id);
      archived[0]!.content = 'mutated';
      expect((await store.summaries(id))[0]?.originalMessageIds).toHaveLength(2);
      expect((await store.archived(id, plan.summary.id))[0]?.content).not.toBe('mutated');
      expect((await store.read(id)).messages[0]?.content).not.toBe('mutated');
    });
  });
}

/** The same plan aimed at another `throughSeq` (record kept self-consistent). */
function withThroughSeq(plan: CompactInput, throughSeq: number): CompactInput {
  const fromSeq = Math.min(plan.record.fromSeq, throughSeq);
  return { ...plan, throughSeq, record: { ...plan.record, fromSeq, throughSeq } };
}
