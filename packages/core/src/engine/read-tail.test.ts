import { describe, expect, it } from 'vitest';
import { parseProfile } from '../config/parse-profile.ts';
import { InteractionLog } from '../model/interaction-log.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import type { ReadOptions, Store } from '../store/store-spec.ts';
import { createShortTermStrategies } from '../strategies/short-term/from-profile.ts';
import { selectionMessages, selectWindow } from '../strategies/short-term/short-term-strategy.ts';
import { generateConversation } from '../testing/generate-conversation.ts';
import { createTokenCounter, withTokenCount } from '../tokens/token-counter.ts';
import { createMemoryEngine } from './memory-engine.ts';
import { readTail } from './read-tail.ts';

const counter = createTokenCounter();
const profile = parseProfile({
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 2000 }],
});

const system = (id: string, content: string) => ({
  id,
  role: 'system' as const,
  content,
  createdAt: 0,
});

async function filled(
  interactions: number,
  head = [system('sys', 'You are Juno.')],
): Promise<{ store: Store; all: ReturnType<typeof generateConversation> }> {
  const store = createInMemoryStore();
  const all = [...head, ...generateConversation({ interactions, seed: 21 })];
  const counted = all.map((m) => withTokenCount(m, counter));
  for (let i = 0; i < counted.length; i += 500) {
    await store.append('s', counted.slice(i, i + 500), { idempotencyKey: `k${i}` });
  }
  return { store, all };
}

/**
 * A store that counts the messages and calls its reads return (delegating to a real store);
 * `beforeRead(n)` runs before the n-th read (from 1), e.g. another writer's change.
 */
function counting(
  store: Store,
  beforeRead?: (n: number, options: ReadOptions | undefined) => Promise<void>,
): { store: Store; read: () => number; calls: () => number } {
  let read = 0;
  let calls = 0;
  return {
    store: {
      ...store,
      append: (...a) => store.append(...a),
      info: (...a) => store.info(...a),
      erase: (...a) => store.erase(...a),
      read: async (...a) => {
        calls++;
        await beforeRead?.(calls, a[1]);
        const r = await store.read(...a);
        read += r.messages.length;
        return r;
      },
    } as Store,
    read: () => read,
    calls: () => calls,
  };
}

/** The prompt a window of `maxTokens` builds from the whole history `all`. */
function expectedWindow(all: ReturnType<typeof generateConversation>, maxTokens: number) {
  const windowProfile = parseProfile({
    short_term_memory_strategy: [
      { memory_strategy_id: 'max_tokens', memory_max_tokens: maxTokens },
    ],
  });
  const whole = new InteractionLog(all.map((m) => withTokenCount(m, counter)));
  return selectionMessages(
    selectWindow(whole, createShortTermStrategies(windowProfile, counter), 3),
  ).map((m) => m.id);
}

async function contextIds(store: Store, maxTokens: number): Promise<string[]> {
  const engine = createMemoryEngine({
    profile: {
      short_term_memory_strategy: [
        { memory_strategy_id: 'max_tokens', memory_max_tokens: maxTokens },
      ],
    },
    store,
  });
  return (await engine.session('s').context()).messages.map((m) => m.id);
}

describe('tail loading (token window, no long-term strategy)', () => {
  it('a fresh engine reads only the tail and builds the same prompt as from the whole history', async () => {
    const { store, all } = await filled(3000);
    const spy = counting(store);
    const engine = createMemoryEngine({ profile, store: spy.store });
    const context = await engine.session('s').context();
    expect(spy.read()).toBeLessThan(1000);

    const whole = new InteractionLog(all.map((m) => withTokenCount(m, counter)));
    const expected = selectionMessages(
      selectWindow(whole, createShortTermStrategies(profile, counter), 3),
    );
    expect(context.messages.map((m) => m.id)).toEqual(expected.map((m) => m.id));
    expect(context.messages[0]!.id).toBe('sys');
  });

  it('keeps following appends after a tail load', async () => {
    const { store } = await filled(500);
    const engine = createMemoryEngine({ profile, store });
    const session = engine.session('s');
    await session.context();
    await session.append({ role: 'user', content: 'And now?' });
    const context = await session.context();
    expect(context.messages.at(-1)!.content).toBe('And now?');
  });

  it.each([1, 50, 500, 2_000, 20_000, 1_000_000_000])(
    'builds the same prompt as from the whole history with a window of %i tokens',
    async (maxTokens) => {
      const { store, all } = await filled(1500);
      expect(await contextIds(store, maxTokens)).toEqual(expectedWindow(all, maxTokens));
    },
  );
});

describe('readTail', () => {
  it('sizes the first page from a tiny budget: one small read, plus the head', async () => {
    const { store } = await filled(2000);
    const spy = counting(store);
    const tail = await readTail(spy.store, 's', 1);
    expect(spy.calls()).toBe(2);
    expect(spy.read()).toBeLessThanOrEqual(17 + 64);
    expect(tail.messages[0]!.id).toBe('sys');
    expect(tail.messages.at(-1)!.seq).toBe((await store.info('s'))!.lastSeq);
  });

  it('reads about what a 2,000-token window needs in one page, not a fixed 256 messages', async () => {
    const { store } = await filled(2000);
    const spy = counting(store);
    const tail = await readTail(spy.store, 's', 2000);
    expect(spy.calls()).toBe(2);
    expect(tail.messages.length).toBeLessThan(256);
    const complete = tail.messages.filter((m) => m.role !== 'system');
    expect(complete.reduce((sum, m) => sum + m.tokenCount, 0)).toBeGreaterThan(2000);
  });

  it('a huge budget reads the whole session (pages growing, no head read) and equals a whole read', async () => {
    const { store } = await filled(1500);
    const spy = counting(store);
    const tail = await readTail(spy.store, 's', 1_000_000_000);
    expect(tail).toEqual(await store.read('s'));
    expect(spy.calls()).toBeLessThanOrEqual(3);
  });

  it('a short session is read in one call, head included', async () => {
    const { store } = await filled(3);
    const spy = counting(store);
    const tail = await readTail(spy.store, 's', 2000);
    expect(tail).toEqual(await store.read('s'));
    expect(spy.calls()).toBe(1);
  });

  it('keeps the system prompts at the head, once each, and none from after the first 64 messages', async () => {
    const head = [system('sys1', 'You are Juno.'), system('sys2', 'Answer in French.')];
    const { store } = await filled(2000, head);
    const late = [system('late', 'A note in the middle.')];
    await store.append(
      's',
      late.map((m) => withTokenCount(m, counter)),
      { idempotencyKey: 'late' },
    );
    await store.append(
      's',
      generateConversation({ interactions: 300, seed: 5, idPrefix: 'x' }).map((m) =>
        withTokenCount(m, counter),
      ),
      { idempotencyKey: 'more' },
    );
    const tail = await readTail(store, 's', 2000);
    const systemIds = tail.messages.filter((m) => m.role === 'system').map((m) => m.id);
    expect(systemIds).toEqual(['sys1', 'sys2']);
    expect(new Set(tail.messages.map((m) => m.seq)).size).toBe(tail.messages.length);
    const seqs = tail.messages.map((m) => m.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('reads the whole session again when it is rewritten (epoch change) between pages', async () => {
    const { store } = await filled(2000);
    // Another writer erases the oldest messages right before the second page is read.
    let erased = false;
    const spy = counting(store, async (_n, options) => {
      if (erased || options?.from !== 'end' || options.beforeSeq === undefined) return;
      erased = true;
      const info = (await store.info('s'))!;
      await store.erase('s', { throughSeq: 100, expectedEpoch: info.epoch });
    });
    // A budget far above what the first page (sized from a guess) holds: a second page is read.
    const tail = await readTail(spy.store, 's', 200_000);
    expect(erased).toBe(true);
    const whole = await store.read('s');
    expect(tail).toEqual(whole);
    expect(tail.messages[0]!.seq).toBeGreaterThan(100);
  });

  it('reads the whole session again when it is rewritten before the head read', async () => {
    const { store } = await filled(2000);
    let erased = false;
    const spy = counting(store, async (_n, options) => {
      if (erased || options?.from === 'end') return;
      erased = true;
      const info = (await store.info('s'))!;
      await store.erase('s', { throughSeq: 1, expectedEpoch: info.epoch });
    });
    const tail = await readTail(spy.store, 's', 500);
    expect(erased).toBe(true);
    expect(tail).toEqual(await store.read('s'));
    expect(tail.messages.some((m) => m.id === 'sys')).toBe(false);
  });
});
