import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptProblems } from '../model/prompt-validity.ts';
import { generateConversation } from '../testing/generate-conversation.ts';
import { turnsOf } from './__fixtures__/replay.ts';
import { createMemoryEngine } from './memory-engine.ts';

const summarizer = fc.record({
  long_term_memory_id: fc.constant('summarizer' as const),
  interaction_threshold_qty: fc.integer({ min: 0, max: 8 }),
  interaction_threshold_tokens: fc.constantFrom(0, 300, 1500),
  interaction_keep: fc.integer({ min: 0, max: 3 }),
  cod_max_loops: fc.integer({ min: 1, max: 2 }),
  on_tools_error_threshold: fc.constantFrom([], ['run_sql'], ['search_orders', 'send_email']),
  knowledge_base: fc.option(fc.constant({ collection_id: 'kb', top_k: 2 }), { nil: null }),
});
const neuralyzer = fc.record({
  long_term_memory_id: fc.constant('neuralyzer' as const),
  interaction_threshold_qty: fc.integer({ min: 1, max: 8 }),
  interaction_keep: fc.integer({ min: 0, max: 3 }),
});
const profile = fc.record({
  short_term_memory_strategy: fc.array(
    fc.record({
      memory_strategy_id: fc.constant('max_tokens' as const),
      memory_max_tokens: fc.integer({ min: 400, max: 4000 }),
      conditions: fc.constantFrom([], ["message.role != 'tool'"], ['!interaction.hasError']),
    }),
    { maxLength: 1 },
  ),
  long_term_memory_strategy: fc.array(fc.oneof(summarizer, neuralyzer), { maxLength: 2 }),
});

/** An opening the agent starts the conversation with, before any user message. */
const openings = {
  none: [],
  greeting: [{ id: 'hello', role: 'assistant', content: 'Hi! Your booking code is BK-7781.' }],
  'tool greeting': [
    {
      id: 'lookup',
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c0', name: 'find_booking', arguments: '{"user":"u1"}' }],
    },
    { id: 'found', role: 'tool', toolCallId: 'c0', toolName: 'find_booking', content: 'BK-7781' },
    { id: 'hello', role: 'assistant', content: 'Your booking code is BK-7781.' },
  ],
} as const;

describe('engine (property-based)', () => {
  it('never loses a message; every prompt is valid and within budget; an opening is shown first', async () => {
    await fc.assert(
      fc.asyncProperty(
        profile,
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.boolean(),
        fc.constantFrom(...(Object.keys(openings) as Array<keyof typeof openings>)),
        async (p, interactions, seed, settle, openingKind) => {
          const engine = createMemoryEngine({ profile: p, summarizerTimeout: 1000 });
          const session = engine.session('s');
          const opening = openings[openingKind].map((m) => ({ ...m, createdAt: 0 }));
          const turns = generateConversation({ interactions, seed, errorRate: 0.3 });
          const all = [...opening, ...turns];
          if (opening.length > 0) await session.append(opening as never);
          const filtersTools = p.short_term_memory_strategy.some((s) =>
            (s.conditions as readonly string[]).includes("message.role != 'tool'"),
          );
          let turn = 0;
          const budget = Math.min(
            ...p.short_term_memory_strategy.map((s) => s.memory_max_tokens),
            Number.POSITIVE_INFINITY,
          );
          for (const [user, ...replies] of turnsOf(turns)) {
            await session.append(user!);
            const context = await session.context();
            expect(promptProblems(context.messages)).toEqual([]);
            // Nothing erased or summarized yet: the opening is shown first, as a whole.
            if (turn++ === 0 && opening.length > 0 && p.long_term_memory_strategy.length === 0) {
              const shown = context.messages.filter((m) => m.role !== 'system').map((m) => m.id);
              expect(shown.slice(0, shown.indexOf(user!.id))).toEqual(
                opening.filter((m) => m.id === 'hello' || !filtersTools).map((m) => m.id),
              );
            }
            expect(context.tokenCount).toBeLessThanOrEqual(budget);
            if (replies.length > 0) await session.append(replies);
            if (settle) await session.idle();
          }
          await session.idle();
          const final = await session.context();
          expect(promptProblems(final.messages)).toEqual([]);
          expect(final.tokenCount).toBeLessThanOrEqual(budget);

          // Each message is active, archived under a summary, or was erased with everything
          // older than it: the surviving history is a suffix of what was appended.
          const ids = all.map((m) => m.id);
          const history = (await session.history()).map((m) => m.id);
          const erased = ids.length - history.length;
          expect(history).toEqual(ids.slice(erased));
          const hasNeuralyzer = p.long_term_memory_strategy.some(
            (s) => s.long_term_memory_id === 'neuralyzer',
          );
          if (!hasNeuralyzer) expect(erased).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });
});
