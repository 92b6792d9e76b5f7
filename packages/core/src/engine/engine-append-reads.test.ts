import { describe, expect, it } from 'vitest';
import { createInMemoryKnowledgeBase } from '../knowledge/in-memory-knowledge-base.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import type { Store } from '../store/store-spec.ts';
import { createMemoryEngine } from './memory-engine.ts';

const window = { memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 };

/** A store with its `read` calls counted and their options kept (each goes to the real store). */
function countingReads(store: Store): { store: Store; reads: () => number; asked: unknown[] } {
  const asked: unknown[] = [];
  const counted = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'read') {
        return (...args: Parameters<Store['read']>) => {
          asked.push(args[1]);
          return target.read(...args);
        };
      }
      return Reflect.get(target, key, receiver);
    },
  });
  return { store: counted, reads: () => asked.length, asked };
}

const turn = (i: number) => [
  { role: 'user' as const, content: `question ${i}` },
  { role: 'assistant' as const, content: `answer ${i}` },
];

describe('engine append: reads only what it cannot prove', () => {
  it('a warm append reads nothing: its result shows nothing changed underneath', async () => {
    const { store, reads } = countingReads(createInMemoryStore());
    const session = createMemoryEngine({
      store,
      profile: { short_term_memory_strategy: [window] },
    }).session('s');
    await session.append(turn(0));
    await session.context();
    const before = reads();
    await session.append(turn(1));
    await session.append(turn(2));
    expect(reads()).toBe(before);
    const context = await session.context();
    expect(context.messages.map((m) => m.content)).toEqual(
      [0, 1, 2].flatMap((i) => [`question ${i}`, `answer ${i}`]),
    );
  });

  it('an append after another writer appended reads the gap, and keeps the store order', async () => {
    const shared = createInMemoryStore();
    const { store, reads } = countingReads(shared);
    const profile = { short_term_memory_strategy: [window] };
    const mine = createMemoryEngine({ store, profile }).session('s');
    const theirs = createMemoryEngine({ store: shared, profile }).session('s');
    await mine.append(turn(0));
    await theirs.append(turn(1));
    const before = reads();
    const appended = await mine.append(turn(2));
    expect(reads()).toBeGreaterThan(before);
    expect(appended.map((m) => m.seq)).toEqual([5, 6]);
    const context = await mine.context();
    expect(context.messages.map((m) => m.content)).toEqual(
      [0, 1, 2].flatMap((i) => [`question ${i}`, `answer ${i}`]),
    );
  });

  it('an append after another writer popped sees the pop (the epoch moved)', async () => {
    const shared = createInMemoryStore();
    const profile = { short_term_memory_strategy: [window] };
    const mine = createMemoryEngine({ store: shared, profile }).session('s');
    const theirs = createMemoryEngine({ store: shared, profile }).session('s');
    await mine.append(turn(0));
    await theirs.pop();
    await mine.append({ role: 'assistant', content: 'answer 0, again' });
    const context = await mine.context();
    expect(context.messages.map((m) => m.content)).toEqual(['question 0', 'answer 0, again']);
  });

  it('a new engine whose first append answers an interaction indexes that interaction', async () => {
    const store = createInMemoryStore();
    const knowledgeBase = createInMemoryKnowledgeBase();
    const profile = {
      short_term_memory_strategy: [window],
      long_term_memory_strategy: [
        {
          long_term_memory_id: 'summarizer',
          interaction_threshold_qty: 1000,
          knowledge_base: { collection_id: 'kb', search_mode: 'always' },
        },
      ],
    };
    // One engine per request, as a stateless server would run it.
    const first = createMemoryEngine({ store, knowledgeBase, profile }).session('s');
    await first.append(turn(0)[0]!);
    await first.idle();
    expect(await knowledgeBase.count('kb', { sessionId: 's' })).toBe(0);
    const second = createMemoryEngine({ store, knowledgeBase, profile }).session('s');
    await second.append(turn(0)[1]!);
    await second.idle();
    expect(await knowledgeBase.count('kb', { sessionId: 's' })).toBeGreaterThan(0);
    const hits = await knowledgeBase.search('kb', 'answer 0', { sessionId: 's', topK: 1 });
    expect(JSON.stringify(hits)).toContain('answer 0');
  });
  it('a new engine does not index again the answered interaction an earlier engine indexed', async () => {
    const store = createInMemoryStore();
    const knowledgeBase = createInMemoryKnowledgeBase();
    const profile = {
      short_term_memory_strategy: [window],
      long_term_memory_strategy: [
        {
          long_term_memory_id: 'summarizer',
          interaction_threshold_qty: 1000,
          knowledge_base: { collection_id: 'kb', search_mode: 'always' },
        },
      ],
    };
    const first = createMemoryEngine({ store, knowledgeBase, profile }).session('s');
    await first.append(turn(0));
    await first.idle();
    expect(await knowledgeBase.count('kb', { sessionId: 's' })).toBe(1);
    // One engine per request: the next one loads the session and goes on with it.
    const engine = createMemoryEngine({ store, knowledgeBase, profile });
    const indexed: number[] = [];
    engine.on('knowledge:indexed', (e) => indexed.push(e.chunks));
    const second = engine.session('s');
    await second.append({ role: 'user', content: 'question 1' });
    await second.idle();
    expect(indexed).toEqual([]);
    await second.append({ role: 'assistant', content: 'answer 1' });
    await second.idle();
    expect(indexed).toEqual([1]);
  });
});

describe('session.messages({ last }): a tail read', () => {
  it('returns the newest messages in order, asking the store for that many only', async () => {
    const { store, asked } = countingReads(createInMemoryStore());
    const session = createMemoryEngine({
      store,
      profile: { short_term_memory_strategy: [window] },
    }).session('s');
    for (let i = 0; i < 5; i++) await session.append(turn(i));
    const tail = await session.messages({ last: 3 });
    expect(tail.map((m) => m.content)).toEqual(['answer 3', 'question 4', 'answer 4']);
    expect(asked.at(-1)).toEqual({ from: 'end', limit: 3 });
    expect((await session.messages({ last: 50 })).map((m) => m.seq)).toEqual(
      (await session.messages()).map((m) => m.seq),
    );
  });

  it('refuses a count that is not a whole number from 1 up, naming `last`', async () => {
    const session = createMemoryEngine({
      profile: { short_term_memory_strategy: [window] },
    }).session('s');
    for (const last of [0, -1, 1.5, Number.NaN, '3']) {
      const error = await session.messages({ last: last as number }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'MEM_VALIDATION', field: 'last' });
    }
  });
});

describe('the session cache is bounded (maxCachedSessions)', () => {
  it('evicts the least recently used sessions; an evicted one is read again, old handles keep working', async () => {
    const { store, reads } = countingReads(createInMemoryStore());
    const engine = createMemoryEngine({
      store,
      profile: { short_term_memory_strategy: [window] },
      maxCachedSessions: 2,
    });
    const a = engine.session('a');
    await a.append(turn(0));
    await a.context();
    await engine.session('b').append(turn(1));
    await engine.session('b').context();
    // Still cached: a warm append of `a` reads nothing.
    let before = reads();
    await a.append(turn(2));
    expect(reads()).toBe(before);
    // `c` pushes out the least recently used, `b`.
    await engine.session('c').append(turn(3));
    before = reads();
    await a.append(turn(4));
    expect(reads()).toBe(before);
    before = reads();
    await engine.session('b').append(turn(5));
    expect(reads()).toBeGreaterThan(before); // reloaded from the store
    // `a` was evicted by `b`'s return; its old handle still answers, from the store.
    expect((await a.context()).messages.map((m) => m.content)).toEqual(
      [0, 2, 4].flatMap((i) => [`question ${i}`, `answer ${i}`]),
    );
    expect((await engine.session('b').context()).messages.map((m) => m.content)).toEqual(
      [1, 5].flatMap((i) => [`question ${i}`, `answer ${i}`]),
    );
  });

  it('never evicts a session with background work in flight', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    const engine = createMemoryEngine({
      maxCachedSessions: 1,
      // A summarizer that answers only when released: `a`'s compaction stays in flight.
      summarizer: async (input: string) => {
        started++;
        await held;
        return input.slice(0, 200);
      },
      profile: {
        short_term_memory_strategy: [window],
        long_term_memory_strategy: [
          { long_term_memory_id: 'summarizer', interaction_threshold_qty: 2, interaction_keep: 1 },
        ],
      },
    });
    const a = engine.session('a');
    for (let i = 0; i < 3; i++) await a.append(turn(i));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toBeGreaterThan(0);
    await engine.session('b').append(turn(9)); // over the bound, but `a` is busy
    let idle = false;
    const waiting = engine.idle().then(() => {
      idle = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(idle).toBe(false); // engine.idle() still sees `a`'s run
    release();
    await waiting;
    expect((await a.summaries()).length).toBe(1);
  });

  it('refuses a size that is not a whole number from 1 up, naming maxCachedSessions', () => {
    for (const maxCachedSessions of [0, -1, 2.5, Number.NaN]) {
      expect(() => createMemoryEngine({ profile: {}, maxCachedSessions })).toThrowError(
        expect.objectContaining({ field: 'maxCachedSessions' }),
      );
    }
  });
});
