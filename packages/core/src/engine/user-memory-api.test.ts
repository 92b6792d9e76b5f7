import { describe, expect, it } from 'vitest';
import { MemValidationError } from '../errors/errors.ts';
import { createInMemoryKnowledgeBase } from '../knowledge/in-memory-knowledge-base.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { createMemoryEngine } from './memory-engine.ts';
import type { MemorySession } from './memory-session.ts';

const recallProfile = (persistence = 'INCREMENTAL') => ({
  persistence_strategy: persistence,
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 2000 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 3,
      interaction_keep: 1,
      knowledge_base: { collection_id: 'kb', search_mode: 'always' },
    },
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 1000,
      knowledge_base: { collection_id: 'kb2', search_mode: 'never' },
    },
  ],
});

function refusal(run: () => unknown): Promise<MemValidationError> {
  return Promise.resolve()
    .then(run)
    .then(
      () => {
        throw new Error('expected a MemValidationError');
      },
      (error: unknown) => {
        expect(error).toBeInstanceOf(MemValidationError);
        return error as MemValidationError;
      },
    );
}

async function chat(session: MemorySession, n: number, word: string) {
  for (let i = 0; i < n; i++) {
    await session.append({ role: 'user', content: `My name is Ana. Tell me about ${word}${i}` });
    await session.append({ role: 'assistant', content: `Here is ${word}${i}.` });
  }
  await session.idle();
}

describe('engine.user(id): facts through the API', () => {
  it('setFact adds, replaces by id or by about, and forgetFact removes one', async () => {
    let now = 0;
    const engine = createMemoryEngine({ profile: {}, now: () => ++now });
    const user = engine.user('ana');
    const home = await user.setFact({ text: '  Lives in\nLisbon. ', about: 'home' });
    expect(home).toMatchObject({ text: 'Lives in Lisbon.', about: 'home', sourceMessageIds: [] });
    const moved = await user.setFact({ text: 'Lives in Porto.', about: 'home' });
    expect(moved.id).toBe(home.id);
    expect(moved.createdAt).toBe(home.createdAt);
    const pet = await user.setFact({ text: 'Has a dog.', id: 'pet' });
    expect(pet.id).toBe('pet');
    await user.setFact({ text: 'Has two dogs.', id: 'pet' });
    expect((await user.facts()).map((f) => f.text)).toEqual(['Lives in Porto.', 'Has two dogs.']);
    expect(await user.forgetFact('pet')).toBe(true);
    expect(await user.forgetFact('pet')).toBe(false);
    expect((await user.facts()).map((f) => f.id)).toEqual([home.id]);
    expect(await engine.user('bob').facts()).toEqual([]);
  });

  it('bad facts are a MemValidationError naming fact.text, fact.about, fact.id or id', async () => {
    const user = createMemoryEngine({ profile: {} }).user('ana');
    const cases: [unknown, string][] = [
      [null, 'fact'],
      [{ text: 42 }, 'fact.text'],
      [{ text: '   ' }, 'fact.text'],
      [{ text: 'x'.repeat(2001) }, 'fact.text'],
      [{ text: 'ok', about: '' }, 'fact.about'],
      [{ text: 'ok', about: 'x'.repeat(129) }, 'fact.about'],
      [{ text: 'ok', id: '' }, 'fact.id'],
      [{ text: 'ok', id: 7 }, 'fact.id'],
    ];
    for (const [fact, field] of cases) {
      expect((await refusal(() => user.setFact(fact as never))).field).toBe(field);
    }
    expect((await refusal(() => user.forgetFact('' as never))).field).toBe('id');
    expect(await user.facts()).toEqual([]);
  });

  it('twenty concurrent setFact calls lose none', async () => {
    const engine = createMemoryEngine({ profile: {} });
    const user = engine.user('ana');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => user.setFact({ text: `Fact ${i}.`, about: `k${i}` })),
    );
    expect((await user.facts()).length).toBe(20);
  });
});

describe('engine.forgetUser', () => {
  it('removes sessions, chunks and facts of the user and nothing of another user; a second call removes nothing', async () => {
    const store = createInMemoryStore();
    const knowledgeBase = createInMemoryKnowledgeBase();
    const engine = createMemoryEngine({ profile: recallProfile(), store, knowledgeBase });
    await chat(engine.session('a1', { userId: 'ana' }), 5, 'alpha');
    await chat(engine.session('a2', { userId: 'ana' }), 2, 'alpha');
    await chat(engine.session('b1', { userId: 'bob' }), 5, 'bravo');
    await engine.user('ana').setFact({ text: 'Likes alpha.' });
    await engine.user('bob').setFact({ text: 'Likes bravo.' });
    // A session indexed before it was bound: its chunks carry no user.
    const late = engine.session('a3');
    await chat(late, 2, 'alpha');
    await engine.session('a3', { userId: 'ana' }).append({ role: 'user', content: 'alpha again' });
    await engine.idle();
    expect(await knowledgeBase.count('kb', { sessionId: 'a3' })).toBeGreaterThan(0);
    const bobChunks = await knowledgeBase.count('kb', { userId: 'bob' });
    const bobExport = await store.export('b1');

    expect(await engine.user('ana').sessions()).toEqual(expect.arrayContaining(['a1', 'a2', 'a3']));
    const report = await engine.forgetUser('ana');
    expect(report.sessions).toBe(3);
    expect(report.messages).toBeGreaterThan(0);
    expect(report.facts).toBeGreaterThan(0);
    expect(report.chunks).toBeGreaterThan(0);
    for (const id of ['a1', 'a2', 'a3']) {
      expect(await store.info(id)).toBeNull();
      expect(await knowledgeBase.count('kb', { sessionId: id })).toBe(0);
      expect(await knowledgeBase.count('kb2', { sessionId: id })).toBe(0);
    }
    expect(await knowledgeBase.count('kb', { userId: 'ana' })).toBe(0);
    expect(await engine.user('ana').facts()).toEqual([]);
    expect(await engine.user('ana').sessions()).toEqual([]);
    expect(await knowledgeBase.count('kb', { userId: 'bob' })).toBe(bobChunks);
    expect(await store.export('b1')).toEqual(bobExport);
    expect((await engine.user('bob').facts()).map((f) => f.text)).toContain('Likes bravo.');

    expect(await engine.user('ana').forget()).toEqual({
      sessions: 0,
      messages: 0,
      facts: 0,
      chunks: 0,
    });
    // The forgotten user's old handle starts afresh.
    const again = engine.session('a1', { userId: 'ana' });
    expect((await again.context()).messages).toEqual([]);
  });

  it('waits for the user’s background work first, so nothing is written after it', async () => {
    const store = createInMemoryStore();
    const knowledgeBase = createInMemoryKnowledgeBase();
    const engine = createMemoryEngine({ profile: recallProfile(), store, knowledgeBase });
    const session = engine.session('a1', { userId: 'ana' });
    for (let i = 0; i < 5; i++) {
      await session.append({ role: 'user', content: `My name is Ana, alpha${i}` });
      await session.append({ role: 'assistant', content: `ok alpha${i}` });
    }
    // No idle(): indexing, compaction and extraction are in flight.
    await engine.forgetUser('ana');
    await engine.idle();
    expect(await store.info('a1')).toBeNull();
    expect(await knowledgeBase.count('kb')).toBe(0);
    expect(await engine.user('ana').facts()).toEqual([]);
  });

  it('EPHEMERAL sessions and facts are forgotten from the private store', async () => {
    const store = createInMemoryStore();
    const engine = createMemoryEngine({ profile: recallProfile('EPHEMERAL'), store });
    await chat(engine.session('e1', { userId: 'ana' }), 2, 'alpha');
    expect(await store.list()).toEqual({ sessionIds: [] });
    expect(await engine.user('ana').sessions()).toEqual(['e1']);
    const report = await engine.forgetUser('ana');
    expect(report.sessions).toBe(1);
    expect(report.facts).toBeGreaterThan(0);
    expect(await engine.user('ana').sessions()).toEqual([]);
  });
});
