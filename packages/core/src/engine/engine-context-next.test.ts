import { describe, expect, it } from 'vitest';
import { createInMemoryKnowledgeBase } from '../knowledge/in-memory-knowledge-base.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { createMemoryEngine } from './memory-engine.ts';

const profile = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 300 }],
};

describe('context({ next })', () => {
  it('ends the context with the next messages, counts them, and stores nothing', async () => {
    const store = createInMemoryStore();
    const engine = createMemoryEngine({ profile, store });
    const session = engine.session('s1');
    await session.append([
      { role: 'user', content: 'My locker code is 4471.' },
      { role: 'assistant', content: 'Noted.' },
    ]);
    const before = await session.context();
    const withNext = await session.context({
      next: { role: 'user', content: 'What was my code?' },
    });
    expect(withNext.messages.at(-1)).toMatchObject({ role: 'user', content: 'What was my code?' });
    expect(withNext.tokenCount).toBeGreaterThan(before.tokenCount);
    expect(withNext.messages.slice(0, -1).map((m) => m.content)).toEqual(
      before.messages.map((m) => m.content),
    );
    expect((await store.read('s1')).messages).toHaveLength(2);
  });

  it('searches the knowledge base for the next user message', async () => {
    const engine = createMemoryEngine({
      profile: {
        long_term_memory_strategy: [
          {
            long_term_memory_id: 'summarizer',
            interaction_keep: 1,
            knowledge_base: { collection_id: 'kb', search_mode: 'always' },
          },
        ],
      },
      store: createInMemoryStore(),
      knowledgeBase: createInMemoryKnowledgeBase(),
    });
    const session = engine.session('s1');
    await session.append([
      { role: 'user', content: 'The wifi password at the cabin is bluefjord77.' },
      { role: 'assistant', content: 'Saved.' },
    ]);
    for (let i = 0; i < 3; i++) {
      await session.append([
        { role: 'user', content: `Weather report number ${i}?` },
        { role: 'assistant', content: 'Sunny.' },
      ]);
    }
    await session.summarizeNow();
    const { knowledge } = await session.context({
      next: { role: 'user', content: 'What is the cabin wifi password?' },
    });
    expect(knowledge.map((h) => h.chunk.text).join('\n')).toContain('bluefjord77');
  });

  it('refuses a system message or a bad shape in next, naming it', async () => {
    const session = createMemoryEngine({ profile, store: createInMemoryStore() }).session('s1');
    await expect(session.context({ next: { role: 'system', content: 'x' } })).rejects.toMatchObject(
      { name: 'MemValidationError', field: 'next[0].role' },
    );
    await expect(
      session.context({ next: [{ role: 'user', content: 42 } as never] }),
    ).rejects.toMatchObject({ name: 'MemValidationError' });
  });
});
