import type { SessionSnapshot, Store } from '@mem/core/backend';
import { describe, expect, it } from 'vitest';
import { richMessages } from './basic-tests.ts';
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

/** A session with history of every kind: appends, two compactions, an erase, keys. */
async function busySession(store: Store, id: string) {
  const first = await store.append(id, richMessages(), { idempotencyKey: 'first-key' });
  await append(store, id, conversation(4));
  const s1 = await planCompaction(store, id, 5);
  await store.compact(id, s1);
  await append(store, id, conversation(3));
  const s2 = await planCompaction(store, id, 9);
  await store.compact(id, s2);
  await append(store, id, conversation(2));
  return { first, s1, s2 };
}

/** Export and import: a snapshot round-trips exactly, between stores and namespaces. */
export function exportImportTests(
  createStore: StoreFactory,
  options: StoreSuiteOptions = {},
): void {
  describe('export and import', () => {
    const stores = useStores(createStore, options);

    it('exports everything a session holds', async () => {
      const store = await stores.open();
      const id = uniqueId('export');
      const { first, s1, s2 } = await busySession(store, id);
      const snapshot = await store.export(id);
      expect(snapshot).not.toBeNull();
      const { format, sessionId, info, messages, archived, summaries, idempotencyKeys } = snapshot!;
      expect({ format, sessionId }).toStrictEqual({ format: 'mem.session.v1', sessionId: id });
      expect(info).toStrictEqual(await store.info(id));
      expect(messages).toStrictEqual((await store.read(id)).messages);
      expect(summaries).toStrictEqual([s1.record, s2.record]);
      const archivedIds = archived.map((m) => m.id).sort();
      expect(archivedIds).toStrictEqual(
        [...s1.record.originalMessageIds, ...s2.record.originalMessageIds].sort(),
      );
      expect(idempotencyKeys[0]).toStrictEqual({
        key: 'first-key',
        version: first.version,
        epoch: first.epoch,
        firstSeq: first.firstSeq,
        lastSeq: first.lastSeq,
      });
      expect(idempotencyKeys).toHaveLength(4);
    });

    it('round-trips exactly into another namespace', async () => {
      const source = await stores.open();
      const target = await stores.open();
      const id = uniqueId('round-trip');
      await busySession(source, id);
      const snapshot = (await source.export(id))!;
      await target.import(snapshot);
      expect(await target.export(id)).toStrictEqual(snapshot);
      expect(await target.read(id)).toStrictEqual(await source.read(id));
      expect(await target.summaries(id)).toStrictEqual(await source.summaries(id));
      const [record] = snapshot.summaries;
      expect(await target.archived(id, record!.id)).toStrictEqual(
        await source.archived(id, record!.id),
      );
      expect((await target.list()).sessionIds).toStrictEqual([id]);
    });

    it('continues the imported session: keys, seqs, version and epoch carry over', async () => {
      const source = await stores.open();
      const target = await stores.open();
      const id = uniqueId('continue');
      const { first } = await busySession(source, id);
      const snapshot = (await source.export(id))!;
      await target.import(snapshot);
      const retry = await target.append(id, conversation(1), { idempotencyKey: 'first-key' });
      expect(retry).toStrictEqual({ ...first, duplicate: true });
      const next = await append(target, id, conversation(1));
      expect(next).toMatchObject({
        firstSeq: snapshot.info.lastSeq + 1,
        version: snapshot.info.version + 1,
        epoch: snapshot.info.epoch,
      });
      const plan = await planCompaction(target, id, snapshot.info.lastSeq);
      expect(plan.expectedEpoch).toBe(snapshot.info.epoch);
      await target.compact(id, plan);
      expect((await target.summaries(id)).at(-1)?.previousSummaryId).toBe(
        snapshot.summaries[1]!.id,
      );
    });

    it('replaces whatever had the id', async () => {
      const store = await stores.open();
      const id = uniqueId('overwrite');
      const other = uniqueId('donor');
      const donorMessages = conversation(2);
      await append(store, other, donorMessages);
      const donor = (await store.export(other))!;
      await busySession(store, id);
      await store.import({ ...donor, sessionId: id, info: { ...donor.info, id } });
      expect((await store.read(id)).messages).toStrictEqual(numbered(donorMessages, 1));
      expect(await store.summaries(id)).toStrictEqual([]);
      expect((await store.info(id))?.version).toBe(1);
      expect((await store.read(other)).messages).toStrictEqual(numbered(donorMessages, 1));
    });

    it('neither aliases a snapshot it imported nor one it exported', async () => {
      const store = await stores.open();
      const id = uniqueId('snapshot-copies');
      await busySession(store, id);
      const exported = (await store.export(id))!;
      const pristine = structuredClone(exported);
      exported.messages[0]!.content = 'mutated';
      exported.summaries[0]!.originalMessageIds.pop();
      expect(await store.export(id)).toStrictEqual(pristine);
      const copyId = uniqueId('snapshot-copy');
      const input = { ...structuredClone(pristine), sessionId: copyId };
      input.info.id = copyId;
      await store.import(input);
      input.messages.pop();
      input.archived[0]!.content = 'mutated';
      expect(await store.export(copyId)).toStrictEqual({
        ...pristine,
        sessionId: copyId,
        info: { ...pristine.info, id: copyId },
      });
    });

    it('rejects an inconsistent snapshot and keeps the session it would replace', async () => {
      const store = await stores.open();
      const id = uniqueId('bad-snapshot');
      await busySession(store, id);
      const good = (await store.export(id))!;
      const broken: unknown[] = [
        null,
        {},
        { ...good, format: 'mem.session.v0' },
        { ...good, info: { ...good.info, id: 'someone-else' } },
        { ...good, info: { ...good.info, messageCount: good.info.messageCount + 1 } },
        { ...good, info: { ...good.info, tokenCount: good.info.tokenCount + 1 } },
        { ...good, info: { ...good.info, lastSeq: 1 } },
        { ...good, messages: [...good.messages].reverse() },
        { ...good, messages: [...good.messages, good.messages[0]] },
        { ...good, archived: good.archived.slice(1) },
        { ...good, summaries: good.summaries.slice(1) },
        { ...good, idempotencyKeys: [...good.idempotencyKeys, good.idempotencyKeys[0]] },
        {
          ...good,
          messages: [{ ...good.messages[0], tokenCount: undefined }, ...good.messages.slice(1)],
        },
      ];
      for (const snapshot of broken) {
        await expectMemError(store.import(snapshot as SessionSnapshot), 'MEM_VALIDATION');
      }
      expect(await store.export(id)).toStrictEqual(good);
    });
  });
}
