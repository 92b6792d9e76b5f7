import { createMemoryEngine, Memory, MemoryManager } from '@mem/core';
import { isSummaryMessage, messageText, promptProblems, type Store } from '@mem/core/backend';
import { generateConversation } from '@mem/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import type { EnginePlaceFactory } from './engine-place.ts';
import { COLLECTION, engineOn, replay, summarizer, THRESHOLD, WINDOW } from './engine-replay.ts';
import { flushEngineTests } from './flush-engine-tests.ts';
import { userIsolationEngineTests } from './user-isolation-engine-tests.ts';
import { userMemoryEngineTests } from './user-memory-engine-tests.ts';

export type { EnginePlaceFactory, EngineTestPlace } from './engine-place.ts';

export interface EngineSuiteOptions {
  /** Runs once after the tests (for example, to remove a temp dir). */
  cleanup?: () => void | Promise<void>;
}

const INTERACTIONS = 200;

/**
 * The engine end to end on a backend: 200 interactions with tool calls and errors replayed
 * through `createMemoryEngine` (summaries indexed into the knowledge base), a second connection
 * that sees the same session, `persistence_strategy: "FLUSH"` (the store holds exactly the
 * conversation; two engines flushing at once lose nothing), user memory (sessions bound to users,
 * recall across a user's sessions, user facts, `forgetUser`, and the isolation property between
 * two users), and the `Memory` and `MemoryManager` facades on the store.
 *
 * ```ts
 * runEngineTests('SQLite', (label) => ({
 *   store: (options) => createSqliteStore({ path: join(dir, `${label}.db`), ...options }),
 *   knowledgeBase: () => createSqliteKnowledgeBase({ path: join(dir, `${label}.db`) }),
 * }));
 * ```
 */
export function runEngineTests(
  name: string,
  createPlace: EnginePlaceFactory,
  options: EngineSuiteOptions = {},
): void {
  if (options.cleanup !== undefined) afterAll(options.cleanup);

  describe(`the engine end to end on ${name}`, () => {
    it(`${INTERACTIONS} interactions with tool calls and errors: compacts, loses nothing, links summaries, retrieves knowledge, and a second process sees the same session`, async () => {
      const place = await createPlace('engine');
      const messages = generateConversation({
        interactions: INTERACTIONS,
        seed: 3,
        errorRate: 0.15,
      });
      const store = place.store();
      const kb = place.knowledgeBase();
      const engine = engineOn(store, kb);
      const compactions: number[] = [];
      engine.on('compacted', (e) => compactions.push(e.record.originalMessageIds.length));

      const tokenCounts = await replay(engine, 's', messages);
      for (const count of tokenCounts) expect(count).toBeLessThanOrEqual(WINDOW);
      expect(compactions.length).toBeGreaterThanOrEqual(Math.floor(INTERACTIONS / (THRESHOLD + 1)));

      const session = engine.session('s');
      const history = await session.history();
      expect(history.map((m) => m.id)).toEqual(messages.map((m) => m.id));
      const active = await session.messages();
      expect(active.filter(isSummaryMessage)).toHaveLength(1);
      expect(active.filter((m) => m.role === 'user').length).toBeLessThanOrEqual(THRESHOLD + 1);
      const records = await session.summaries();
      expect(records.length).toBe(compactions.length);
      for (let i = 1; i < records.length; i++) {
        expect(records[i]!.previousSummaryId).toBe(records[i - 1]!.id);
      }
      expect(await kb.count(COLLECTION, { sessionId: 's' })).toBeGreaterThan(records.length);

      const early = messages.find((m) => m.role === 'tool' && m.isError === true)!;
      await session.append({ role: 'user', content: `What happened with ${messageText(early)}?` });
      const context = await session.context();
      expect(context.knowledge.length).toBeGreaterThan(0);
      expect(context.knowledge.length).toBeLessThanOrEqual(3);
      expect(context.messages.some((m) => m.metadata?.kind === 'knowledge')).toBe(true);
      expect(promptProblems(context.messages)).toEqual([]);
      expect(context.tokenCount).toBeLessThanOrEqual(WINDOW);
      await engine.idle();

      // A new process: new connections to the same place see the same session and index.
      const store2 = place.store();
      const kb2 = place.knowledgeBase();
      const engine2 = engineOn(store2, kb2);
      const session2 = engine2.session('s');
      expect(await session2.history()).toEqual(await session.history());
      expect(await session2.messages()).toEqual(await session.messages());
      expect(await session2.summaries()).toEqual(await session.summaries());
      expect(await kb2.count(COLLECTION)).toBe(await kb.count(COLLECTION));
      expect(await kb2.count(COLLECTION)).toBe(await kb.count(COLLECTION, { sessionId: 's' }));
      const settled = await session.context();
      const reopened = await session2.context();
      expect(reopened.messages.map((m) => m.id)).toEqual(settled.messages.map((m) => m.id));
      expect(reopened.knowledge.map((h) => h.chunk.id)).toEqual(
        settled.knowledge.map((h) => h.chunk.id),
      );
      expect(reopened.knowledge.length).toBeGreaterThan(0);
      await Promise.all([store.close(), kb.close(), store2.close(), kb2.close()]);
    });
  });

  flushEngineTests(name, createPlace);
  userMemoryEngineTests(name, createPlace);
  userIsolationEngineTests(name, createPlace);

  describe(`facades on ${name}`, () => {
    it('a conversation that opens with an assistant greeting shows it before the first question, also to a second process', async () => {
      const place = await createPlace('greeting');
      const profile = {
        short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 8000 }],
      };
      const store = place.store();
      const session = createMemoryEngine({ store, profile }).session('greet');
      await session.append({ role: 'assistant', content: 'Hi! Your booking code is BK-7781.' });
      await session.append({ role: 'user', content: 'What was my booking code?' });
      const lines = (messages: readonly { role: string }[]) =>
        messages.map((m) => `${m.role}: ${messageText(m as never)}`);
      const expected = [
        'assistant: Hi! Your booking code is BK-7781.',
        'user: What was my booking code?',
      ];
      const here = (await session.context()).messages;
      expect(lines(here)).toEqual(expected);
      expect(promptProblems(here)).toEqual([]);

      const other = place.store();
      const reopened = createMemoryEngine({ store: other, profile }).session('greet');
      expect(lines((await reopened.context()).messages)).toEqual(expected);
      await Promise.all([store.close(), other.close()]);
    });

    it("Memory (strategy 'summary') summarizes into the shared store and reopens by sessionId", async () => {
      const place = await createPlace('memory');
      const store = place.store();
      const memory = new Memory({ strategy: 'summary', store, sessionId: 'chat-1', summarizer });
      for (let i = 1; i <= 15; i++) await memory.add(`Question ${i} about City${i}`, `Answer ${i}`);
      await memory.idle();
      const messages = await memory.messages();
      expect(isSummaryMessage(messages[0]!)).toBe(true);
      expect(messages.filter((m) => m.role === 'user').length).toBeLessThan(15);

      const other = place.store();
      const again = new Memory({
        strategy: 'summary',
        store: other,
        sessionId: 'chat-1',
        summarizer,
      });
      expect(await again.messages()).toEqual(messages);
      expect(await again.text()).toBe(await memory.text());
      await Promise.all([store.close(), other.close()]);
    });

    it('MemoryManager exports a session and imports it back into another namespace', async () => {
      const place = await createPlace('manager');
      await exportAndImport(place.store({ namespace: 'a' }), place.store({ namespace: 'b' }));
    });

    it('MemoryManager exports a session and imports it back into another place', async () => {
      const [from, to] = [await createPlace('manager-a'), await createPlace('manager-b')];
      await exportAndImport(from.store(), to.store());
    });
  });
}

/** Fills a MemoryManager session on `store`, exports it and imports it on `target`; closes both. */
async function exportAndImport(store: Store, target: Store): Promise<void> {
  const memory = new MemoryManager({ store, maxEntries: 8, recentWindow: 3 });
  for (let i = 0; i < 10; i++) {
    await memory.addUserMessage('s', `Please check order ${i}`);
    await memory.addToolCall('s', 'lookup', { order: i });
    await memory.addToolResult('s', 'lookup', `order ${i} shipped`, { isError: i % 4 === 0 });
    await memory.addAssistantMessage('s', `Order ${i} is on its way.`);
  }
  await memory.idle();
  const state = await memory.exportSession('s');
  expect(state.entries.some((e) => e.type === 'summary')).toBe(true);
  expect(state.entries.filter((e) => e.type !== 'summary')).toHaveLength(40);

  const fresh = new MemoryManager({ store: target });
  await fresh.importSession(state);
  expect(await fresh.exportSession('s')).toStrictEqual(state);
  expect(await fresh.getContextForLLM('s')).toBe(await memory.getContextForLLM('s'));
  expect(JSON.parse(JSON.stringify(await fresh.exportSession('s')))).toStrictEqual(
    JSON.parse(JSON.stringify(state)),
  );
  await Promise.all([store.close(), target.close()]);
}
