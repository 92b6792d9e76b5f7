import { describe, expect, it } from 'vitest';
import { MemValidationError } from '../errors/errors.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { createMemoryEngine } from './memory-engine.ts';

const profile = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
};

async function refusal(run: () => unknown): Promise<MemValidationError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(MemValidationError);
    return error as MemValidationError;
  }
  throw new Error('expected a MemValidationError');
}

describe('sessions belong to a user', () => {
  it('the first append binds the session in the store, and the handle says whose it is', async () => {
    const store = createInMemoryStore();
    const engine = createMemoryEngine({ profile, store });
    const session = engine.session('s1', { userId: 'ana' });
    expect(session.userId).toBe('ana');
    await session.append({ role: 'user', content: 'Hello' });
    expect((await store.info('s1'))?.userId).toBe('ana');
    expect(await engine.user('ana').sessions()).toEqual(['s1']);
    expect(engine.session('s1').userId).toBe('ana');
  });

  it('a session bound to user A is refused for user B at once, naming userId and not A', async () => {
    const engine = createMemoryEngine({ profile });
    await engine.session('s1', { userId: 'ana' }).append({ role: 'user', content: 'Hi' });
    const error = await refusal(() => engine.session('s1', { userId: 'bob' }));
    expect(error.field).toBe('userId');
    expect(error.message).toContain('belongs to another user');
    expect(error.message).not.toContain('ana');
  });

  it('a session stored for user A is refused for user B by another engine on its first call, and nothing is written', async () => {
    const store = createInMemoryStore();
    await createMemoryEngine({ profile, store })
      .session('s1', { userId: 'ana' })
      .append({ role: 'user', content: 'My secret is 42' });
    const other = createMemoryEngine({ profile, store });
    const handle = other.session('s1', { userId: 'bob' });
    for (const call of [
      () => handle.context(),
      () => handle.append({ role: 'user', content: 'hi' }),
      () => handle.messages(),
      () => handle.history(),
      () => handle.summaries(),
      () => handle.clear(),
    ]) {
      expect((await refusal(call)).field).toBe('userId');
    }
    expect((await store.read('s1')).messages).toHaveLength(1);
    // A handle without a user adopts the stored one.
    const plain = other.session('s1');
    expect((await plain.context()).messages).toHaveLength(1);
    expect(plain.userId).toBe('ana');
    expect((await refusal(() => other.session('s1', { userId: 'bob' }))).field).toBe('userId');
  });

  it('a bad user id or options object is a MemValidationError naming the field', async () => {
    const engine = createMemoryEngine({ profile });
    for (const userId of ['', 'a\nb', 'x'.repeat(513), '\ud800', 42]) {
      const error = await refusal(() => engine.session('s', { userId: userId as string }));
      expect(error.field).toBe('userId');
    }
    expect((await refusal(() => engine.session('s', 'ana' as never))).field).toBe('options');
    expect((await refusal(() => engine.user(''))).field).toBe('userId');
    expect((await refusal(() => engine.forgetUser(7 as never))).field).toBe('userId');
  });

  it('sessions without a user keep working as before, and one of them may later be given a user', async () => {
    const store = createInMemoryStore();
    const engine = createMemoryEngine({ profile, store });
    const plain = engine.session('p');
    await plain.append({ role: 'user', content: 'Hi' });
    expect(plain.userId).toBeUndefined();
    expect((await store.info('p'))?.userId).toBeUndefined();
    await engine.session('p', { userId: 'ana' }).append({ role: 'assistant', content: 'Hello' });
    expect((await store.info('p'))?.userId).toBe('ana');
  });

  it('a handle keeps its user across cache evictions, and is refused once the session is bound to another', async () => {
    const store = createInMemoryStore();
    // No fact extraction: nothing in flight keeps a session cached.
    const engine = createMemoryEngine({
      profile,
      store,
      maxCachedSessions: 1,
      factExtractor: null,
    });
    const ana = engine.session('s1', { userId: 'ana' });
    await engine.session('other').append({ role: 'user', content: 'evicts s1' });
    await ana.append({ role: 'user', content: 'Hi' });
    expect((await store.info('s1'))?.userId).toBe('ana');
    await engine.session('other').append({ role: 'user', content: 'evicts s1 again' });
    const bob = engine.session('s1', { userId: 'bob' });
    expect((await refusal(() => bob.append({ role: 'user', content: 'x' }))).field).toBe('userId');
    expect((await store.read('s1')).messages).toHaveLength(1);
  });

  it('a claim racing a first read never lends the session to the claimer nor refuses the owner', async () => {
    const store = createInMemoryStore();
    await createMemoryEngine({ profile, store })
      .session('s1', { userId: 'ana' })
      .append({ role: 'user', content: 'My secret is 42' });
    const engine = createMemoryEngine({ profile, store });
    const plain = engine.session('s1').context();
    const bob = engine.session('s1', { userId: 'bob' }).context();
    const ana = engine.session('s1', { userId: 'ana' }).context();
    expect((await plain).messages).toHaveLength(1);
    expect((await ana).messages).toHaveLength(1);
    expect((await refusal(() => bob)).field).toBe('userId');
    expect(engine.session('s1').userId).toBe('ana');
  });
});
