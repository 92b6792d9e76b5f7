import { describe, expect, it } from 'vitest';
import type { KnowledgeBase, KnowledgeChunk } from '../knowledge/knowledge-base-spec.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { recordingKnowledgeBase } from './__fixtures__/recording-knowledge-base.ts';
import { createMemoryEngine } from './memory-engine.ts';

const profile = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 3000 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 1000,
      knowledge_base: { collection_id: 'kb', search_mode: 'always', top_k: 100 },
    },
  ],
};

let made = 0;
function chunk(text: string, tokenCount: number): KnowledgeChunk {
  made++;
  return {
    id: `old-${made}:0`,
    text,
    tokenCount,
    metadata: {
      sessionId: 's',
      kind: 'archive',
      messageIds: [`old-${made}`],
      createdAt: Date.UTC(2026, 0, 1) + made * 60_000,
    },
  };
}

/** The knowledge a brand-new engine (which asks for every hit `top_k` allows) gives. */
async function freshKnowledge(
  store: ReturnType<typeof createInMemoryStore>,
  kb: KnowledgeBase,
): Promise<string[]> {
  const engine = createMemoryEngine({ profile, store, knowledgeBase: kb });
  return (await engine.session('s').context()).knowledge.map((h) => h.chunk.id);
}

describe('how many hits the engine asks the knowledge base for', () => {
  it('asks for top_k at first, then about twice what the room holds; the knowledge is the same as asking for all', async () => {
    const { kb, depths } = recordingKnowledgeBase();
    const topics = ['harbor', 'orchard', 'violin', 'glacier'];
    await kb.add(
      'kb',
      Array.from({ length: 240 }, (_, i) =>
        chunk(`${topics[i % 4]} note ${i} about the ${topics[(i + 1) % 4]} and weather`, 100),
      ),
    );
    const store = createInMemoryStore();
    const engine = createMemoryEngine({ profile, store, knowledgeBase: kb });
    const session = engine.session('s');
    for (const [i, topic] of topics.entries()) {
      await session.append({ id: `u${i}`, role: 'user', content: `What about the ${topic}?` });
      const before = depths.length;
      const context = await session.context();
      expect(depths.length).toBe(before + 1);
      expect(context.knowledge.length).toBeGreaterThan(10);
      // Every chunk takes 100 tokens: a hit further down could never fit what is left.
      const ids = context.knowledge.map((h) => h.chunk.id);
      const searches = depths.length;
      expect(await freshKnowledge(store, kb)).toEqual(ids);
      depths.length = searches;
      await session.append({ id: `a${i}`, role: 'assistant', content: 'Noted.' });
    }
    expect(depths[0]).toBe(100);
    // Under 3,000 tokens of room / 100-token hits, twice over, plus the window: not 100.
    for (const depth of depths.slice(1)) expect(depth).toBeLessThan(70);
  });

  it('searches again for every hit top_k allows when the first hits leave the room mostly empty', async () => {
    const { kb, depths } = recordingKnowledgeBase();
    // Hits too big for the room teach the engine that hits are big: its next search asks few.
    await kb.add('kb', [chunk('alpha alpha alpha', 9_000), chunk('alpha alpha', 9_000)]);
    // Then a question whose best hits are all too big, with small ones ranked below them.
    const big = Array.from({ length: 40 }, (_, i) => chunk(`beta beta beta ${i}`, 9_000));
    const small = Array.from({ length: 30 }, (_, i) =>
      chunk(`beta and a longer line of other words number ${i} to rank it lower`, 60),
    );
    await kb.add('kb', [...big, ...small]);
    const store = createInMemoryStore();
    const engine = createMemoryEngine({ profile, store, knowledgeBase: kb });
    const session = engine.session('s');
    await session.append({ id: 'u1', role: 'user', content: 'What about alpha?' });
    expect((await session.context()).knowledge).toEqual([]);
    await session.append({ id: 'a1', role: 'assistant', content: 'Nothing fits.' });
    await session.append({ id: 'u2', role: 'user', content: 'And beta?' });
    depths.length = 0;
    const context = await session.context();
    expect(depths).toHaveLength(2);
    expect(depths[0]).toBeLessThan(40);
    expect(depths[1]).toBe(100);
    const ids = context.knowledge.map((h) => h.chunk.id);
    expect(ids.length).toBeGreaterThan(10);
    expect(ids.every((id) => small.some((c) => c.id === id))).toBe(true);
    expect(await freshKnowledge(store, kb)).toEqual(ids);
    // The context of the same question again reuses the deep search.
    depths.length = 0;
    expect((await session.context()).knowledge.map((h) => h.chunk.id)).toEqual(ids);
    expect(depths).toEqual([]);
  });
});
