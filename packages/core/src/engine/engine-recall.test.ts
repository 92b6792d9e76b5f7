import { describe, expect, it } from 'vitest';
import { createInMemoryKnowledgeBase } from '../knowledge/in-memory-knowledge-base.ts';
import { isSummaryMessage } from '../model/message.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import { KNOWLEDGE_HEADER } from './knowledge-message.ts';
import { createMemoryEngine } from './memory-engine.ts';
import { searchQuery } from './recall-query.ts';

const facts = [
  'My sister Maja moved to Tromsø in March.',
  'The boiler service is booked for the 14th at 8 am.',
  'Our dog Miso only eats the salmon kibble.',
  'I renewed the car insurance with Fjordsikring for 6,200 kroner.',
  'When I was a kid we spent every summer on the island of Senja.',
  'The book club meets on Thursdays at the library on Storgata.',
];

const filler = (i: number) =>
  `Chat ${i}: the weather was grey again and the tram was late, nothing else happened today.`;

function recallEngine(options: { budget?: number; keep?: number; qty?: number } = {}) {
  const knowledgeBase = createInMemoryKnowledgeBase();
  const store = createInMemoryStore();
  const engine = createMemoryEngine({
    profile: {
      short_term_memory_strategy: [
        { memory_strategy_id: 'max_tokens', memory_max_tokens: options.budget ?? 600 },
      ],
      long_term_memory_strategy: [
        {
          long_term_memory_id: 'summarizer',
          interaction_threshold_qty: options.qty ?? 1000,
          interaction_keep: options.keep ?? 2,
          knowledge_base: { collection_id: 'kb', search_mode: 'always' },
        },
      ],
    },
    store,
    knowledgeBase,
  });
  return { engine, knowledgeBase, store };
}

async function say(
  session: ReturnType<ReturnType<typeof createMemoryEngine>['session']>,
  text: string,
) {
  await session.append([
    { role: 'user', content: text },
    { role: 'assistant', content: 'Got it.' },
  ]);
  await session.idle();
}

describe('recall: turns become searchable as they finish', () => {
  it('indexes an interaction as soon as it is answered, long before a compaction', async () => {
    const { engine, knowledgeBase } = recallEngine();
    const session = engine.session('s');
    await session.append({ role: 'user', content: facts[0]! });
    await session.idle();
    expect(await knowledgeBase.count('kb', { sessionId: 's' })).toBe(0); // not answered yet
    await session.append({ role: 'assistant', content: 'Got it.' });
    await session.idle();
    expect(await knowledgeBase.count('kb', { sessionId: 's' })).toBe(1);
    await say(session, filler(1));
    await session.idle();
    expect(await knowledgeBase.count('kb', { sessionId: 's' })).toBe(2);
    for (let i = 2; i < 30; i++) await say(session, filler(i));
    expect(await session.summaries()).toEqual([]);
    const context = await session.context({
      next: { role: 'user', content: 'Where did my sister move?' },
    });
    // Out of the 600-token window for a long time, yet in the prompt, under its date line.
    const knowledge = context.messages.find((m) => m.metadata?.kind === 'knowledge');
    expect(knowledge?.content).toContain('User: My sister Maja moved to Tromsø in March.');
    expect(String(knowledge?.content)).toMatch(
      /^Relevant memory[^\n]*\n\[\d{4}-\d\d-\d\d \d\d:\d\d\]\n/,
    );
    expect(context.tokenCount).toBeLessThanOrEqual(600);
  });

  it('a clear while indexing is queued leaves nothing of the cleared session searchable', async () => {
    const { engine, knowledgeBase } = recallEngine();
    const session = engine.session('s');
    await say(session, facts[0]!);
    await session.append({ role: 'user', content: facts[1]! }); // queues indexing of the first turn
    await session.clear();
    await session.idle();
    expect(await knowledgeBase.count('kb', { sessionId: 's' })).toBe(0);
  });

  it('never repeats what the window already shows', async () => {
    const { engine } = recallEngine({ budget: 100_000 });
    const session = engine.session('s');
    for (const fact of facts) await say(session, fact);
    const context = await session.context({
      next: { role: 'user', content: 'What does Miso eat?' },
    });
    expect(context.knowledge).toEqual([]);
    expect(context.messages.some((m) => m.content === KNOWLEDGE_HEADER)).toBe(false);
    expect(context.messages.filter((m) => m.content === facts[2])).toHaveLength(1);
  });

  it('fills retrieval’s share of the budget and leaves the window the rest', async () => {
    const { engine } = recallEngine({ budget: 1_000 });
    const session = engine.session('s');
    for (let i = 0; i < 60; i++) await say(session, `${filler(i)} ${facts[i % facts.length]}`);
    const context = await session.context({
      next: { role: 'user', content: 'Tell me about the weather, the tram and the library.' },
    });
    const knowledge = context.messages.find((m) => m.metadata?.kind === 'knowledge')!;
    const windowTokens = context.messages
      .filter((m) => m.role !== 'system')
      .reduce((s, m) => s + m.tokenCount, 0);
    expect(context.tokenCount).toBeLessThanOrEqual(1_000);
    // Knowledge may take 3/4 of what is left after the question, and more than the window.
    expect(knowledge.tokenCount).toBeGreaterThan(500);
    expect(knowledge.tokenCount).toBeLessThanOrEqual(0.75 * 1_000 + 40);
    expect(windowTokens).toBeGreaterThan(100);
    expect(context.knowledge.length).toBeGreaterThan(5);
  });
});

describe('recall: one summary’s worth of knowledge', () => {
  it('drops a summary’s chunks when a newer summary folds it in', async () => {
    const { engine, knowledgeBase } = recallEngine({ budget: 4_000, qty: 4, keep: 1 });
    const session = engine.session('s');
    for (let i = 0; i < 14; i++) await say(session, `${facts[i % facts.length]} (${i})`);
    const summaries = await session.summaries();
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    const active = (await session.messages()).find(isSummaryMessage)!;
    const hits = await knowledgeBase.search('kb', 'sister boiler dog insurance Senja book club', {
      topK: 100,
      sessionId: 's',
    });
    const summaryIds = new Set(
      hits
        .filter((h) => h.chunk.metadata.kind === 'summary')
        .map((h) => h.chunk.metadata.summaryId),
    );
    expect([...summaryIds]).toEqual([active.id]);
    // The archived turns stay searchable, each once.
    const turns = hits.filter((h) => h.chunk.metadata.kind === 'archive');
    expect(new Set(turns.map((h) => h.chunk.id)).size).toBe(turns.length);
    expect(turns.length).toBeGreaterThanOrEqual(10);
  });

  it('an erasure removes the turns every erased summary archived, however deeply nested', async () => {
    const knowledgeBase = createInMemoryKnowledgeBase();
    const engine = createMemoryEngine({
      profile: {
        long_term_memory_strategy: [
          {
            long_term_memory_id: 'summarizer',
            interaction_threshold_qty: 4,
            interaction_keep: 1,
            knowledge_base: { collection_id: 'kb', search_mode: 'always' },
          },
          {
            long_term_memory_id: 'neuralyzer',
            interaction_threshold_qty: 100,
            interaction_keep: 0,
          },
        ],
      },
      knowledgeBase,
    });
    const session = engine.session('s');
    for (let i = 0; i < 14; i++) await say(session, `${facts[i % facts.length]} (${i})`);
    expect((await session.summaries()).length).toBeGreaterThanOrEqual(2);
    expect(await knowledgeBase.count('kb', { sessionId: 's' })).toBeGreaterThan(10);
    await say(session, 'One more thing before we stop.');
    await session.compact({ force: true });
    const left = await knowledgeBase.search('kb', 'sister Tromsø boiler Miso insurance Senja', {
      topK: 100,
      sessionId: 's',
    });
    expect(left).toEqual([]);
  });
});

describe('recall: what is searched', () => {
  it('does not match on question words', async () => {
    const { engine } = recallEngine({ budget: 300 });
    const session = engine.session('s');
    for (const fact of facts) await say(session, fact);
    for (let i = 0; i < 12; i++) await say(session, filler(i));
    const context = await session.context({
      next: { role: 'user', content: 'When does the book club meet?' },
    });
    const texts = context.knowledge.map((h) => h.chunk.text).join('\n');
    expect(texts).toContain('Thursdays');
    // "When I was a kid…" shares only the question word.
    expect(texts).not.toContain('Senja');
  });

  it('searches a follow-up together with the previous user turn', () => {
    expect(searchQuery('When is the boiler service?')).not.toMatch(/when/i);
    expect(searchQuery('And the insurance?', 'How much was the boiler service?')).toMatch(/boiler/);
    expect(searchQuery('What about Maja?', 'Where did Tomas move?')).toMatch(/Tomas/);
    expect(searchQuery('Where did my sister Maja move?', 'Unrelated earlier turn')).not.toMatch(
      /Unrelated/,
    );
  });

  it('a failing knowledge base never fails an append or a context', async () => {
    const { engine, knowledgeBase } = recallEngine();
    const errors: string[] = [];
    engine.on('knowledge:error', (e) => errors.push(e.operation));
    const session = engine.session('s');
    await say(session, facts[0]!);
    await knowledgeBase.close();
    await say(session, facts[1]!);
    const context = await session.context({ next: { role: 'user', content: 'Where is Maja?' } });
    expect(context.knowledge).toEqual([]);
    expect(errors).toEqual(['index', 'search']);
    expect((await session.history()).map((m) => m.content)).toContain(facts[1]);
  });
});
