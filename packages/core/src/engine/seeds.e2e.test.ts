import { describe, expect, it } from 'vitest';
import { seedExamples } from '../config/__fixtures__/seed-examples.ts';
import { isSummarizerConfig } from '../config/profile-schema.ts';
import { isSummaryMessage, type Message, messageText } from '../model/message.ts';
import { promptProblems } from '../model/prompt-validity.ts';
import { createInMemoryStore } from '../store/in-memory-store.ts';
import type { SummarizeOptions } from '../summarize/summarizer.ts';
import { conversation200, replay, turnsOf } from './__fixtures__/replay.ts';
import { createMemoryEngine, type MemoryEngine } from './memory-engine.ts';

const seed = (name: string): unknown => {
  const example = seedExamples.find((e) => e.seed === name);
  if (example === undefined) throw new Error(`no seed example ${name}`);
  const json: unknown = JSON.parse(example.json);
  if (example.kind === 'short-term') return { short_term_memory_strategy: [json] };
  if (example.kind === 'long-term') return { long_term_memory_strategy: [json] };
  return json;
};

/** A user's summarizer: keeps the first line of each user message; records what it was asked. */
function recordingSummarizer() {
  const calls: { input: string; options: SummarizeOptions }[] = [];
  const summarizer = (input: string, options: SummarizeOptions) => {
    calls.push({ input, options });
    const lines = input.split('\n').filter((l) => l.toLowerCase().startsWith('user'));
    return `Decisions and action items: ${lines.slice(0, 8).join(' | ')}`.slice(
      0,
      options.targetTokens * 3,
    );
  };
  return { calls, summarizer };
}

function interactionsIn(messages: readonly Message[]): number {
  return messages.filter((m) => m.role === 'user').length;
}

async function expectNothingLost(
  engine: MemoryEngine,
  id: string,
  all: readonly Message[],
  erased = 0,
) {
  const history = await engine.session(id).history();
  const ids = all.map((m) => m.id);
  expect(history.map((m) => m.id)).toEqual(ids.slice(erased));
}

describe('seed examples end to end (200 interactions with tool calls and errors)', () => {
  const messages = conversation200();

  it('000 max_tokens: 8,000-token window without tool messages, nothing summarized', async () => {
    const engine = createMemoryEngine({ profile: seed('000 MemoryMaxTokensStrategy') });
    const contexts = await replay(engine, 's', messages);
    for (const c of contexts) {
      expect(c.tokenCount).toBeLessThanOrEqual(8000);
      expect(c.messages.some((m) => m.role === 'tool' || m.toolCalls !== undefined)).toBe(false);
      expect(promptProblems(c.messages)).toEqual([]);
    }
    expect(contexts.at(-1)!.messages.at(-1)!.id).toBe(turnsOf(messages).at(-1)![0]!.id);
    expect(await engine.session('s').summaries()).toEqual([]);
    await expectNothingLost(engine, 's', messages);
  });

  for (const name of ['000 SummarizerStrategy', '001 summarizer'] as const) {
    it(`${name}: summarizes past the threshold, keeps the last interactions, indexes and retrieves`, async () => {
      const profile = seed(name);
      const { calls, summarizer } = recordingSummarizer();
      const engine = createMemoryEngine({ profile, summarizer });
      const entry = engine.profile.longTerm[0]!.config;
      if (!isSummarizerConfig(entry)) throw new Error('expected summarizer');
      const compactions: number[] = [];
      engine.on('compacted', (e) => compactions.push(e.record.originalMessageIds.length));
      await replay(engine, 's', messages);
      const session = engine.session('s');

      expect(compactions.length).toBeGreaterThanOrEqual(
        Math.floor(200 / (entry.interaction_threshold_qty + 1)),
      );
      // Each pass of Chain of Density called the summarizer, with the seed's instructions.
      expect(calls.length).toBe(compactions.length * entry.cod_max_loops);
      for (const call of calls) expect(call.options.instructions).toContain(entry.instructions!);
      // After a compaction only interaction_keep interactions remained; never more than the threshold + 1.
      const active = await session.messages();
      expect(interactionsIn(active)).toBeLessThanOrEqual(entry.interaction_threshold_qty + 1);
      expect(active.filter(isSummaryMessage)).toHaveLength(1);
      const records = await session.summaries();
      expect(records.at(-1)!.previousSummaryId).toBe(records.at(-2)!.id);
      await expectNothingLost(engine, 's', messages);

      // The knowledge base holds the summaries and archived turns; a question about an early
      // fact brings them back into the context.
      const kb = engine.knowledgeBase!;
      const collection = entry.knowledge_base!.collection_id;
      expect(await kb.count(collection, { sessionId: 's' })).toBeGreaterThan(records.length);
      const early = messages.find((m) => m.role === 'tool' && m.isError === true)!;
      await session.append({ role: 'user', content: `What happened with ${messageText(early)}?` });
      const context = await session.context();
      expect(context.knowledge.length).toBeGreaterThan(0);
      expect(context.knowledge.length).toBeLessThanOrEqual(entry.knowledge_base!.top_k);
      expect(context.messages.some((m) => m.metadata?.kind === 'knowledge')).toBe(true);
      expect(promptProblems(context.messages)).toEqual([]);
    });
  }

  for (const name of ['000 NeuralyzerStrategy', '001 neuralyzer'] as const) {
    it(`${name}: erases everything but the last 5 interactions once past 30, for good`, async () => {
      const store = createInMemoryStore();
      const engine = createMemoryEngine({ profile: seed(name), store });
      const erased: number[] = [];
      engine.on('erased', (e) => erased.push(e.erasedCount));
      await replay(engine, 's', messages);
      expect(erased.length).toBeGreaterThan(0);
      const active = await engine.session('s').messages();
      expect(interactionsIn(active)).toBeLessThanOrEqual(31);
      expect(interactionsIn(active)).toBeGreaterThanOrEqual(5);
      const survivors = await engine.session('s').history();
      const firstKept = survivors[0]!.id;
      const erasedIds = messages
        .slice(
          0,
          messages.findIndex((m) => m.id === firstKept),
        )
        .map((m) => m.id);
      const exported = JSON.stringify(await store.export('s'));
      for (const erasedId of erasedIds) expect(exported).not.toContain(`"${erasedId}"`);
      await expectNothingLost(engine, 's', messages, erasedIds.length);
    });
  }

  it('001 short-term memory: an 8,000-token window over the whole conversation', async () => {
    const engine = createMemoryEngine({ profile: seed('001 short-term memory') });
    const contexts = await replay(engine, 's', messages);
    const last = contexts.at(-1)!;
    expect(last.tokenCount).toBeLessThanOrEqual(8000);
    expect(last.tokenCount).toBeGreaterThan(7000);
    expect(promptProblems(last.messages)).toEqual([]);
  });

  it('001 combined: summarize after 20 interactions keeping 2, then an 8,000-token window', async () => {
    const engine = createMemoryEngine({ profile: seed('001 combined') });
    const session = engine.session('s');
    const turns = turnsOf(messages);
    const first21 = turns.slice(0, 21).flat();
    await replay(engine, 's', first21);
    const records = await session.summaries();
    expect(records).toHaveLength(1);
    const active = await session.messages();
    expect(active[0]!.id).toBe(records[0]!.id);
    expect(interactionsIn(active)).toBe(2);
    expect(active.slice(1).map((m) => m.id)).toEqual(
      turns
        .slice(19, 21)
        .flat()
        .map((m) => m.id),
    );
    const context = await session.context();
    expect(context.messages[0]!.id).toBe(records[0]!.id);
    expect(context.tokenCount).toBeLessThanOrEqual(8000);
    await replay(engine, 's', turns.slice(21).flat());
    for (const c of await replay(engine, 's', [])) expect(c.tokenCount).toBeLessThanOrEqual(8000);
    expect((await session.summaries()).length).toBeGreaterThanOrEqual(9);
    await expectNothingLost(engine, 's', messages);
  });
});
