import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryEngine, type Message } from '@mem/core';
import { planCompaction } from '@mem/store-test-suite';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from './sqlite-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'mem-sqlite-tail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `tail-${files++}.db`);

const profile = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4_000 }],
};

/** Interaction `i`: a question and an answer of varying length (so windows end mid-history). */
function turn(i: number) {
  return [
    { role: 'user' as const, content: `Question ${i}: ${'about the order '.repeat(1 + (i % 7))}` },
    {
      role: 'assistant' as const,
      content: `Answer ${i}: ${'it ships soon. '.repeat(1 + (i % 11))}`,
    },
  ];
}

/** A session of `interactions` turns on a new file, written through an engine, then closed. */
async function fileWith(sessionId: string, interactions: number, system = false) {
  const path = newFile();
  const store = createSqliteStore({ path });
  const session = createMemoryEngine({ store, profile }).session(sessionId);
  if (system) await session.append({ role: 'system', content: 'You are the order desk.' });
  for (let i = 0; i < interactions; i += 50) {
    const batch = [];
    for (let t = i; t < Math.min(interactions, i + 50); t++) batch.push(...turn(t));
    await session.append(batch);
  }
  await store.close();
  return path;
}

/** `messages({ last })` from a new store and engine on the file (a fresh connection). */
async function tail(path: string, sessionId: string, last: number) {
  const store = createSqliteStore({ path });
  try {
    return await createMemoryEngine({ store, profile }).session(sessionId).messages({ last });
  } finally {
    await store.close();
  }
}

/** Every active message, read by the store itself. */
async function active(path: string, sessionId: string) {
  const store = createSqliteStore({ path });
  try {
    return (await store.read(sessionId)).messages;
  } finally {
    await store.close();
  }
}

describe('session.messages({ last }) on a SQLite file: a tail read', () => {
  it('returns exactly the newest `last` active messages, oldest first, from a new store and engine', async () => {
    const path = await fileWith('chat', 300);
    const all = await active(path, 'chat');
    expect(all).toHaveLength(600);
    for (const last of [1, 2, 3, 64, 599]) {
      expect(await tail(path, 'chat', last)).toStrictEqual(all.slice(-last));
    }
    expect(await tail(path, 'chat', 600)).toStrictEqual(all);
    expect(await tail(path, 'chat', 10_000)).toStrictEqual(all);
  });

  it('after a compaction, returns the summary where it sits and never an archived original', async () => {
    const path = await fileWith('chat', 10);
    const store = createSqliteStore({ path });
    const plan = await planCompaction(store, 'chat', 12);
    await store.compact('chat', plan);
    await store.close();
    const summary = { ...plan.summary, seq: 12 };
    const after = (await active(path, 'chat')).slice(1);
    expect(after.map((m) => m.seq)).toStrictEqual([13, 14, 15, 16, 17, 18, 19, 20]);
    expect(await tail(path, 'chat', 5)).toStrictEqual(after.slice(-5));
    expect(await tail(path, 'chat', 8)).toStrictEqual(after);
    expect(await tail(path, 'chat', 9)).toStrictEqual([summary, ...after]);
    expect(await tail(path, 'chat', 50)).toStrictEqual([summary, ...after]);
  });

  it('after an erasure, returns the newest messages left and never an erased one', async () => {
    const path = await fileWith('chat', 10);
    const store = createSqliteStore({ path });
    const { epoch } = await store.read('chat', { limit: 1 });
    await store.erase('chat', { expectedEpoch: epoch, throughSeq: 6 });
    await store.close();
    const left = await active(path, 'chat');
    expect(left.map((m) => m.seq)).toStrictEqual([
      7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
    ]);
    expect(await tail(path, 'chat', 3)).toStrictEqual(left.slice(-3));
    expect(await tail(path, 'chat', 14)).toStrictEqual(left);
    expect(await tail(path, 'chat', 100)).toStrictEqual(left);
  });
});

const shown = (messages: readonly Message[]) => messages.map((m) => `${m.role}: ${m.content}`);

describe('a new store and engine per request on a SQLite file', () => {
  it.each([false, true])(
    'builds the same context after each turn as an engine kept open (reuseConnection: %s)',
    async (reuseConnection) => {
      // Two sessions with the same history: one served by an engine kept open, the other by a
      // new store and engine per request, as a server that keeps no state does.
      const path = await fileWith('kept', 400, true);
      const seed = createSqliteStore({ path });
      const copy = createMemoryEngine({ store: seed, profile }).session('per-request');
      const history = (await seed.read('kept')).messages;
      await copy.append(history.map(({ role, content }) => ({ role, content }) as Message));
      await seed.close();

      const keptStore = createSqliteStore({ path });
      const kept = createMemoryEngine({ store: keptStore, profile }).session('kept');
      for (let i = 400; i < 406; i++) {
        await kept.append(turn(i));
        const warm = await kept.context();
        const store = createSqliteStore({ path, reuseConnection });
        const session = createMemoryEngine({ store, profile }).session('per-request');
        await session.append(turn(i));
        const cold = await session.context();
        await store.close();
        expect(shown(cold.messages)).toStrictEqual(shown(warm.messages));
        expect(cold.tokenCount).toBe(warm.tokenCount);
        // The window is a tail of a long session, with the system prompt from its first message.
        expect(warm.messages[0]).toMatchObject({
          role: 'system',
          content: 'You are the order desk.',
        });
        expect(warm.messages.length).toBeLessThan(400);
        expect(shown(warm.messages)[1]).not.toMatch(/^user: Question 0:/);
      }
      await keptStore.close();
    },
  );
});
