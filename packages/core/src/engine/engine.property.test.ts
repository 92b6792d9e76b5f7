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

describe('engine (property-based)', () => {
  it('never loses a message; every prompt is valid and within budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        profile,
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.boolean(),
        async (p, interactions, seed, settle) => {
          const engine = createMemoryEngine({ profile: p, summarizerTimeout: 1000 });
          const session = engine.session('s');
          const all = generateConversation({ interactions, seed, errorRate: 0.3 });
          const budget = Math.min(
            ...p.short_term_memory_strategy.map((s) => s.memory_max_tokens),
            Number.POSITIVE_INFINITY,
          );
          for (const [user, ...replies] of turnsOf(all)) {
            await session.append(user!);
            const context = await session.context();
            expect(promptProblems(context.messages)).toEqual([]);
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
