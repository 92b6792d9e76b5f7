import { createMemoryEngine, type MemoryEngine, type MemorySession } from '@mem/core';
import { isSummaryMessage, parseSessionSnapshot, type Store } from '@mem/core/backend';
import { generateConversation } from '@mem/core/testing';
import { describe, expect, it } from 'vitest';
import type { EnginePlaceFactory } from './engine-place.ts';
import { summarizer, turnsOf } from './engine-replay.ts';

/** FLUSH with a summarizer that fires every 6 interactions and keeps the last 2. */
const FLUSH_PROFILE = {
  persistence_strategy: 'FLUSH',
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 8000 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 6,
      interaction_keep: 2,
      cod_max_loops: 1,
    },
  ],
};

const flushEngine = (store: Store): MemoryEngine =>
  createMemoryEngine({ profile: FLUSH_PROFILE, store, summarizer });

/** What the store holds of a session, checked as a snapshot. */
async function stored(store: Store, sessionId: string) {
  return parseSessionSnapshot(await store.export(sessionId));
}

/**
 * `persistence_strategy: "FLUSH"` on a backend: after every inference the stored session is the
 * current conversation and nothing else, and concurrent writers lose nothing they acknowledged.
 * Run by `runEngineTests`.
 */
export function flushEngineTests(name: string, createPlace: EnginePlaceFactory): void {
  describe(`persistence_strategy FLUSH on ${name}`, () => {
    it('after every inference the store holds exactly the conversation (its summary included, no archive, no record), and a second process sees it', async () => {
      const place = await createPlace('flush');
      const store = place.store();
      const engine = flushEngine(store);
      const session = engine.session('f');
      const dropped: number[] = [];
      engine.on('flushed', (e) => dropped.push(e.droppedSummaries));
      const turns = turnsOf(generateConversation({ interactions: 30, seed: 7, errorRate: 0.2 }));
      for (const [user, ...replies] of turns) {
        await session.append(user!);
        await session.context();
        if (replies.length > 0) await session.append(replies);
        await session.idle();
        const snapshot = await stored(store, 'f');
        expect(snapshot.archived).toEqual([]);
        expect(snapshot.summaries).toEqual([]);
        expect(snapshot.messages).toEqual(await session.messages());
      }
      expect(dropped.length).toBeGreaterThanOrEqual(3);
      expect(dropped.every((n) => n === 1)).toBe(true);
      const { messages, info } = await stored(store, 'f');
      expect(messages.filter(isSummaryMessage)).toHaveLength(1);
      expect(isSummaryMessage(messages[0]!)).toBe(true);
      // Bounded: the summary and at most the kept and newly triggering interactions.
      expect(messages.filter((m) => m.role === 'user').length).toBeLessThanOrEqual(7);
      expect(info.messageCount).toBe(messages.length);

      const other = place.store();
      const reopened = flushEngine(other).session('f');
      expect(await reopened.messages()).toEqual(messages);
      expect((await reopened.history()).map((m) => m.id)).toEqual(messages.map((m) => m.id));
      expect(await reopened.summaries()).toEqual([]);
      const ids = (s: MemorySession) => s.context().then((c) => c.messages.map((m) => m.id));
      expect(await ids(reopened)).toEqual(await ids(session));
      await Promise.all([store.close(), other.close()]);
    });

    it('two engines on two connections flushing one session at once lose no acknowledged message: each is active or in a summary that committed', async () => {
      const place = await createPlace('flush-race');
      const stores = [place.store(), place.store()];
      const engines = stores.map(flushEngine);
      const summarized = new Set<string>();
      const flushErrors: unknown[] = [];
      for (const engine of engines) {
        engine.on('compacted', (e) => {
          for (const id of e.record.originalMessageIds) summarized.add(id);
        });
        engine.on('flush:error', (e) => flushErrors.push(e.error));
      }
      const acknowledged: string[] = [];
      const writers = engines.map(async (engine, w) => {
        const session = engine.session('f');
        const conversation = generateConversation({
          interactions: 40,
          seed: 11 + w,
          idPrefix: `w${w}`,
        });
        for (const turn of turnsOf(conversation)) {
          acknowledged.push(...(await session.append(turn)).map((m) => m.id));
        }
        await session.idle();
      });
      await Promise.all(writers);
      expect(summarized.size).toBeGreaterThan(0);
      // The next inference flushes whatever a lost race left behind.
      const last = engines[0]!.session('f');
      await last.append({ role: 'user', content: 'And now?' });
      await last.idle();
      const snapshot = await stored(stores[1]!, 'f');
      const active = new Set(snapshot.messages.map((m) => m.id));
      expect(acknowledged.filter((id) => !active.has(id) && !summarized.has(id))).toEqual([]);
      expect(snapshot.archived).toEqual([]);
      expect(snapshot.summaries).toEqual([]);
      for (const error of flushErrors) {
        expect((error as { code?: string }).code).toBe('MEM_STORE_CONFLICT');
      }
      await Promise.all(stores.map((s) => s.close()));
    });
  });
}
