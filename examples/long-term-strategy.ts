import { type CustomLongTermConfig, createMemoryEngine, type LongTermStrategy } from '@mem/core';
import { planPrefix } from '@mem/core/strategies';
import { z } from 'zod';

// A long-term strategy of your own: forget (erase) all but the last `keep_turns` turns.
const keepRecent: LongTermStrategy<CustomLongTermConfig & { keep_turns: number }> = {
  id: 'keep_recent',
  fields: { keep_turns: z.number().int().min(1).default(3) },
  plan(log, config) {
    const prefix = planPrefix(log, config.keep_turns); // everything before the kept turns
    return prefix && { action: 'erase', prefix };
  },
};

const engine = createMemoryEngine({
  profile: {
    long_term_memory_strategy: [
      { long_term_memory_id: 'keep_recent', interaction_threshold_qty: 4, keep_turns: 2 },
    ],
  },
  longTermStrategies: [keepRecent],
});
const session = engine.session('user-42');
for (const city of ['Lisbon', 'Porto', 'Madrid', 'Paris', 'Rome']) {
  await session.append([
    { role: 'user', content: `Weather in ${city}?` },
    { role: 'assistant', content: `Sunny in ${city}.` },
  ]);
}
await session.idle();
console.log(JSON.stringify((await session.messages()).map((m) => m.content)));
