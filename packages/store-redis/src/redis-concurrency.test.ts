import { MemError } from '@mem/core';
import type { Store, StoredMessage } from '@mem/core/backend';
import { describe, expect, inject, it } from 'vitest';
import { createRedisStore } from './redis-store.ts';

const url = `redis://127.0.0.1:${inject('redisPort')}`;
const nodes = inject('clusterPorts').map((port) => ({ host: '127.0.0.1', port }));

const turn = (writer: number, i: number) =>
  [0, 1].map((j) => ({
    id: `w${writer}-${i}-${j}`,
    role: j === 0 ? ('user' as const) : ('assistant' as const),
    content: `writer ${writer} turn ${i} part ${j}`,
    createdAt: 1_700_000_000_000 + i,
    tokenCount: 3,
  }));

/** Compacts the oldest half of the active log, re-planning on conflicts, until `stop()`. */
async function compactor(store: Store, sessionId: string, done: () => boolean): Promise<number> {
  let commits = 0;
  while (!done()) {
    const { epoch, messages } = await store.read(sessionId);
    const replaced = messages.slice(0, Math.floor(messages.length / 2));
    const last = replaced.at(-1);
    if (last === undefined) continue;
    const summaries = new Set((await store.summaries(sessionId)).map((r) => r.id));
    const previous = replaced.filter((m) => summaries.has(m.id)).at(-1)?.id;
    const id = `sum-${epoch}-${last.seq}`;
    try {
      await store.compact(sessionId, {
        expectedEpoch: epoch,
        throughSeq: last.seq,
        summary: {
          id,
          role: 'system',
          content: 'summary',
          createdAt: 1_700_000_000_000,
          metadata: { kind: 'summary' },
          tokenCount: 1,
        },
        record: {
          id,
          originalMessageIds: replaced.map((m) => m.id),
          fromSeq: replaced[0]?.seq ?? last.seq,
          throughSeq: last.seq,
          originalTokenCount: 3 * replaced.length,
          tokenCount: 1,
          compressionRatio: 3 * replaced.length,
          timeRange: { start: 1_700_000_000_000, end: 1_700_000_000_000 },
          createdAt: 1_700_000_000_000,
          ...(previous === undefined ? {} : { previousSummaryId: previous }),
        },
      });
      commits += 1;
    } catch (error) {
      if (!(MemError.isInstance(error) && error.code === 'MEM_STORE_CONFLICT')) throw error;
    }
  }
  return commits;
}

/** Every non-summary message ever appended, following archives (summaries of summaries too). */
async function everything(store: Store, sessionId: string): Promise<StoredMessage[]> {
  const snapshot = await store.export(sessionId);
  if (snapshot === null) return [];
  return [...snapshot.archived, ...snapshot.messages].filter((m) => m.role !== 'system');
}

describe.each([
  ['standalone', () => ({ url })],
  ['cluster', () => ({ nodes })],
] as const)('concurrent writers and a compactor, each on its own connection (%s)', (_n, conn) => {
  it('keeps every turn exactly once, whole, in each writer order', async () => {
    const namespace = `conc${Date.now().toString(36)}`;
    const writers = 6;
    const turns = 40;
    const stores = Array.from({ length: writers + 1 }, () =>
      createRedisStore({ ...conn(), namespace }),
    );
    const sessionId = 'shared';
    let finished = 0;
    try {
      const compacting = compactor(stores[writers] as Store, sessionId, () => finished === writers);
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let i = 0; i < turns; i++) {
            await (stores[w] as Store).append(sessionId, turn(w, i), {
              idempotencyKey: `w${w}-${i}`,
            });
          }
          finished += 1;
        }),
      );
      const commits = await compacting;
      expect(commits).toBeGreaterThan(0);
      const all = await everything(stores[0] as Store, sessionId);
      expect(all).toHaveLength(writers * turns * 2);
      expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
      const bySeq = [...all].sort((a, b) => a.seq - b.seq);
      for (let w = 0; w < writers; w++) {
        const mine = bySeq.filter((m) => m.id.startsWith(`w${w}-`)).map((m) => m.id);
        expect(mine).toStrictEqual(
          Array.from({ length: turns }, (_, i) => turn(w, i).map((m) => m.id)).flat(),
        );
      }
      for (let k = 1; k < bySeq.length; k += 2) {
        expect(bySeq[k]?.seq).toBe((bySeq[k - 1]?.seq ?? 0) + 1);
      }
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
