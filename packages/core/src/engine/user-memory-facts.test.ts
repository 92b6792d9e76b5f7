import { describe, expect, it } from 'vitest';
import { MemError } from '../errors/mem-error.ts';
import type { FactExtractor, FactOperation } from '../facts/fact-extractor.ts';
import { createInMemoryKnowledgeBase } from '../knowledge/in-memory-knowledge-base.ts';
import { messageText } from '../model/message.ts';
import { createInMemoryBackend, createInMemoryStore } from '../store/in-memory-store.ts';
import type { Store } from '../store/store-spec.ts';
import { createTokenCounter } from '../tokens/token-counter.ts';
import { createMemoryEngine, type MemoryEngineOptions } from './memory-engine.ts';
import { USER_FACTS_HEADER, USER_FACTS_MESSAGE_ID } from './user-facts-message.ts';

const SYSTEM = { role: 'system' as const, content: 'You are a helpful travel agent.' };

/** An extractor that turns "fact: <about>=<text>" lines of user messages into operations. */
const lineExtractor: FactExtractor = {
  specificationVersion: 'mem.fact-extractor.v1',
  id: 'lines',
  extract: async ({ messages }) =>
    messages.flatMap((m): FactOperation[] => {
      if (m.role !== 'user') return [];
      const match = /^fact: (\w+)=(.+)$/.exec(messageText(m));
      return match === null ? [] : [{ op: 'add', about: match[1]!, text: match[2]! }];
    }),
};

function factsEngine(options: Partial<MemoryEngineOptions> & { maxTokens?: number } = {}) {
  const store = options.store ?? createInMemoryStore();
  const engine = createMemoryEngine({
    profile: {
      short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
      user_facts: { max_tokens: options.maxTokens ?? 400 },
    },
    factExtractor: lineExtractor,
    ...options,
    store,
  });
  return { engine, store };
}

async function turn(engine: ReturnType<typeof factsEngine>['engine'], id: string, text: string) {
  const session = engine.session(id, { userId: 'ana' });
  await session.append({ role: 'user', content: text });
  await session.append({ role: 'assistant', content: 'Noted.' });
  return session;
}

describe('the user facts block', () => {
  it('facts learnt in one session show in the next session’s context right after the system prompt', async () => {
    const { engine, store } = factsEngine();
    const updates: unknown[] = [];
    engine.on('facts:updated', (e) => updates.push(e));
    const first = await turn(engine, 's1', 'fact: home=Lives in Lisbon.');
    await engine.idle();
    expect(updates).toHaveLength(1);
    const [fact] = await engine.user('ana').facts();
    expect(fact).toMatchObject({ text: 'Lives in Lisbon.', about: 'home', sessionId: 's1' });
    const userMessage = (await first.messages())[0]!;
    expect(fact!.sourceMessageIds).toEqual([userMessage.id]);

    const next = engine.session('s2', { userId: 'ana' });
    await next.append(SYSTEM);
    await next.append({ role: 'user', content: 'Where should I fly from?' });
    const { messages, tokenCount } = await next.context();
    expect(messages[0]!.content).toBe(SYSTEM.content);
    expect(messages[1]).toMatchObject({ id: USER_FACTS_MESSAGE_ID, role: 'system' });
    expect(messageText(messages[1]!)).toBe(`${USER_FACTS_HEADER}\n- Lives in Lisbon.`);
    expect(messages[1]!.metadata).toEqual({ kind: 'user_facts', factIds: [fact!.id] });
    const counter = createTokenCounter();
    expect(messages[1]!.tokenCount).toBe(counter.countMessage(messages[1]!));
    expect(tokenCount).toBe(
      messages.reduce((sum, m) => sum + m.tokenCount, 0) + counter.replyPrimingTokens,
    );
    // Never stored, never a message of the session.
    const stored = (await store.read('s2')).messages;
    expect(stored.some((m) => m.id === USER_FACTS_MESSAGE_ID)).toBe(false);
    // Other users and sessions without a user get no block.
    for (const other of [engine.session('b', { userId: 'bob' }), engine.session('plain')]) {
      await other.append({ role: 'user', content: 'Hello' });
      const ids = (await other.context()).messages.map((m) => m.id);
      expect(ids).not.toContain(USER_FACTS_MESSAGE_ID);
    }
  });

  it('a corrected fact supersedes the old one (same id, kept createdAt)', async () => {
    let now = 1_000;
    const { engine } = factsEngine({ now: () => (now += 1_000) });
    await turn(engine, 's1', 'fact: home=Lives in Lisbon.');
    await engine.idle();
    const [before] = await engine.user('ana').facts();
    await turn(engine, 's2', 'fact: home=Lives in Porto.');
    await engine.idle();
    const facts = await engine.user('ana').facts();
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ id: before!.id, text: 'Lives in Porto.', sessionId: 's2' });
    expect(facts[0]!.createdAt).toBe(before!.createdAt);
    expect(facts[0]!.updatedAt).toBeGreaterThan(before!.updatedAt);
    const session = engine.session('s3', { userId: 'ana' });
    await session.append({ role: 'user', content: 'Hi' });
    const text = JSON.stringify((await session.context()).messages);
    expect(text).toContain('Porto');
    expect(text).not.toContain('Lisbon');
  });

  it('holds the newest facts that fit max_tokens, shown oldest first', async () => {
    let now = 0;
    const { engine } = factsEngine({ maxTokens: 40, factExtractor: null, now: () => ++now });
    const user = engine.user('ana');
    for (let i = 0; i < 10; i++) await user.setFact({ text: `Fact number ${i} about Ana.` });
    const session = engine.session('s', { userId: 'ana' });
    await session.append({ role: 'user', content: 'Hi' });
    const block = (await session.context()).messages.find((m) => m.id === USER_FACTS_MESSAGE_ID)!;
    expect(block.tokenCount).toBeLessThanOrEqual(40);
    const lines = messageText(block).split('\n').slice(1);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(10);
    const numbers = lines.map((l) => Number(/number (\d+)/.exec(l)![1]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers.at(-1)).toBe(9);
  });

  it('the block counts against the window: older turns make room for it', async () => {
    const { engine } = factsEngine({ factExtractor: null, maxTokens: 120 });
    const tight = createMemoryEngine({
      profile: {
        short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 200 }],
        user_facts: { max_tokens: 120 },
      },
      store: engine.store,
      factExtractor: null,
    });
    for (let i = 0; i < 6; i++) {
      await tight.user('ana').setFact({ text: `Ana's fact number ${i} is worth remembering.` });
    }
    const session = tight.session('s', { userId: 'ana' });
    for (let i = 0; i < 8; i++) {
      await session.append({ role: 'user', content: `Question ${i} about the trip to Senja?` });
      await session.append({ role: 'assistant', content: `Answer ${i}: take the morning ferry.` });
    }
    const context = await session.context();
    expect(context.tokenCount).toBeLessThanOrEqual(200);
    const block = context.messages.find((m) => m.id === USER_FACTS_MESSAGE_ID)!;
    expect(block.tokenCount).toBeGreaterThan(40);
    const plain = createMemoryEngine({
      profile: {
        short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 200 }],
        user_facts: null,
      },
      store: engine.store,
    });
    const without = await plain.session('s').context();
    const turns = (messages: readonly { role: string }[]) =>
      messages.filter((m) => m.role !== 'system').length;
    expect(turns(context.messages)).toBeLessThan(turns(without.messages));
  });

  it('user_facts null or max_tokens 0 shows no block, and null extracts nothing', async () => {
    for (const userFacts of [null, { max_tokens: 0, extraction: 'never' }]) {
      const engine = createMemoryEngine({
        profile: { user_facts: userFacts },
        factExtractor: lineExtractor,
      });
      await engine.user('ana').setFact({ text: 'Lives in Lisbon.' });
      await turn(engine as never, 's', 'fact: pet=Has a dog.');
      await engine.idle();
      const context = await engine.session('s', { userId: 'ana' }).context();
      expect(context.messages.map((m) => m.id)).not.toContain(USER_FACTS_MESSAGE_ID);
      expect((await engine.user('ana').facts()).map((f) => f.text)).toEqual(['Lives in Lisbon.']);
    }
  });

  it('the facts block is never indexed into the knowledge base', async () => {
    const knowledgeBase = createInMemoryKnowledgeBase();
    const engine = createMemoryEngine({
      profile: {
        long_term_memory_strategy: [
          {
            long_term_memory_id: 'summarizer',
            interaction_threshold_qty: 2,
            knowledge_base: { collection_id: 'kb', search_mode: 'always' },
          },
        ],
      },
      knowledgeBase,
      factExtractor: null,
    });
    await engine.user('ana').setFact({ text: 'Secret word zebracorn.' });
    const session = engine.session('s', { userId: 'ana' });
    for (let i = 0; i < 6; i++) {
      await session.append({ role: 'user', content: `Question ${i}` });
      await session.context();
      await session.append({ role: 'assistant', content: `Answer ${i}` });
    }
    await session.compact({ force: true });
    await engine.idle();
    expect(await knowledgeBase.search('kb', 'zebracorn', { topK: 5 })).toEqual([]);
    expect(JSON.stringify(await session.history())).not.toContain('zebracorn');
  });
});

describe('fact extraction in the background', () => {
  it('never runs on the request path: append resolves while a slow extractor is still working', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    const slow: FactExtractor = {
      specificationVersion: 'mem.fact-extractor.v1',
      id: 'slow',
      extract: async () => {
        started++;
        await gate;
        return [{ op: 'add', text: 'Likes slow food.' }];
      },
    };
    const { engine } = factsEngine({ factExtractor: slow });
    const session = await turn(engine, 's', 'I like slow food');
    await session.context();
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toBe(1);
    expect(await engine.user('ana').facts()).toEqual([]);
    let idle = false;
    const waiting = session.idle().then(() => {
      idle = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(idle).toBe(false);
    release();
    await waiting;
    expect((await engine.user('ana').facts()).map((f) => f.text)).toEqual(['Likes slow food.']);
  });

  it('a bad result is reported as facts:error naming the extractor and what extract() must return, and nothing is written', async () => {
    const results: unknown[] = [
      'not an array',
      [{ op: 'add' }],
      [{ op: 'add', text: '   ' }],
      [{ op: 'add', text: 'x'.repeat(2001) }],
      [{ op: 'add', text: 'Error: 429 Too Many Requests. Please try again later.' }],
      [{ op: 'rename', id: 'a' }],
      [{ op: 'add', text: '\ud800 broken' }],
      [{ op: 'add', text: 'API key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234.' }],
    ];
    for (const result of results) {
      const bad: FactExtractor = {
        specificationVersion: 'mem.fact-extractor.v1',
        id: 'bad-one',
        extract: async () => result as FactOperation[],
      };
      const { engine } = factsEngine({ factExtractor: bad });
      const errors: { extractor: string; error: unknown; userId: string; sessionId: string }[] = [];
      engine.on('facts:error', (e) => errors.push(e));
      await turn(engine, 's', 'hello');
      await engine.idle();
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ extractor: 'bad-one', userId: 'ana', sessionId: 's' });
      const error = errors[0]!.error as MemError;
      expect(MemError.hasCode(error, 'MEM_VALIDATION')).toBe(true);
      expect(error.message).toContain('"bad-one"');
      expect(error.message).toContain('extract() must resolve to an array of operations');
      expect(await engine.user('ana').facts()).toEqual([]);
    }
  });

  it('an extractor that throws or misses the deadline is reported, and the facts stay', async () => {
    const throwing: FactExtractor = {
      specificationVersion: 'mem.fact-extractor.v1',
      id: 'thrower',
      extract: () => {
        throw new Error('boom');
      },
    };
    let aborted = false;
    const hanging: FactExtractor = {
      specificationVersion: 'mem.fact-extractor.v1',
      id: 'hanger',
      extract: (_input, { signal }) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
    };
    for (const [extractor, words] of [
      [throwing, 'threw (Error: boom)'],
      [hanging, 'did not answer within 50 ms'],
    ] as const) {
      const { engine } = factsEngine({ factExtractor: extractor, summarizerTimeout: 50 });
      await engine.user('ana').setFact({ text: 'Lives in Lisbon.' });
      const errors: unknown[] = [];
      engine.on('facts:error', (e) => errors.push(e.error));
      await turn(engine, 's', 'hello');
      await engine.idle();
      expect(errors).toHaveLength(1);
      expect((errors[0] as Error).message).toContain(words);
      expect((await engine.user('ana').facts()).map((f) => f.text)).toEqual(['Lives in Lisbon.']);
    }
    expect(aborted).toBe(true);
  });

  it('sessions of one user extracting at once in two processes lose no fact (compare-and-swap, re-read and re-applied)', async () => {
    const backend = createInMemoryBackend();
    const slow = [0, 1].map(() => slowFactsStore(createInMemoryStore({ backend })));
    const engines = slow.map((s) => factsEngine({ store: s.store }).engine);
    const store = slow[0]!.store;
    const conflicts: unknown[] = [];
    for (const engine of engines) engine.on('facts:error', (e) => conflicts.push(e.error));
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => turn(engines[i % 2]!, `s${i}`, `fact: k${i}=Fact ${i}.`)),
    );
    await Promise.all(engines.map((e) => e.idle()));
    const engine = engines[0]!;
    expect(conflicts).toEqual([]);
    const texts = (await engine.user('ana').facts()).map((f) => f.text).sort();
    expect(texts).toEqual(Array.from({ length: 6 }, (_, i) => `Fact ${i}.`));
    expect((await store.userFacts('ana')).version).toBeGreaterThanOrEqual(6);
    expect(slow[0]!.conflicts() + slow[1]!.conflicts()).toBeGreaterThan(0);
  });

  it('shows the facts another process wrote after forgetting the user, never the forgotten ones (versions restart at 0)', async () => {
    const backend = createInMemoryBackend();
    const here = factsEngine({ store: createInMemoryStore({ backend }) }).engine;
    const there = factsEngine({ store: createInMemoryStore({ backend }) }).engine;
    await here.user('ana').setFact({ about: 'location', text: 'Lives in Lisbon.' });
    const session = here.session('s', { userId: 'ana' });
    const before = await session.context({ next: { role: 'user', content: 'hi' } });
    expect(before.messages.map(messageText).join('\n')).toContain('Lives in Lisbon.');

    await there.forgetUser('ana');
    await there.user('ana').setFact({ about: 'location', text: 'Lives in Porto.' });

    const after = await session.context({ next: { role: 'user', content: 'hi' } });
    const text = after.messages.map(messageText).join('\n');
    expect(text).toContain('Lives in Porto.');
    expect(text).not.toContain('Lisbon');
  });

  it('the default extractor learns a name with no model', async () => {
    const engine = createMemoryEngine({ profile: {} });
    const session = engine.session('s', { userId: 'ana' });
    await session.append({ role: 'user', content: 'Hi, my name is Ana.' });
    await session.append({ role: 'assistant', content: 'Nice to meet you, Ana!' });
    await engine.idle();
    expect((await engine.user('ana').facts()).map((f) => f.about)).toContain('name');
  });
});

/** A store whose fact reads take a moment, so concurrent writers interleave and conflict. */
function slowFactsStore(store: Store): { store: Store; conflicts: () => number } {
  let conflicts = 0;
  const slow = Object.assign(Object.create(store) as Store, {
    userFacts: async (userId: string) => {
      const read = await store.userFacts(userId);
      await new Promise((r) => setTimeout(r, 5));
      return read;
    },
    writeUserFacts: async (userId: string, input: Parameters<Store['writeUserFacts']>[1]) => {
      try {
        return await store.writeUserFacts(userId, input);
      } catch (error) {
        if (MemError.hasCode(error, 'MEM_STORE_CONFLICT')) conflicts++;
        throw error;
      }
    },
  });
  return { store: slow, conflicts: () => conflicts };
}
