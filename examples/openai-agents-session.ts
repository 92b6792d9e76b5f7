import { createMemoryEngine } from '@mem/core';
import { MemAgentsSession } from '@mem/openai-agents';
import { createSqliteStore } from '@mem/store-sqlite';
import { Agent, run, tool } from '@openai/agents';
import { z } from 'zod';

const getWeather = tool({
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `Sunny in ${city}, 21°C.`,
});
const agent = new Agent({
  name: 'Assistant',
  instructions: 'Answer briefly.',
  tools: [getWeather],
  model: 'gpt-4.1-mini', // reads OPENAI_API_KEY (and OPENAI_BASE_URL)
});

const engine = createMemoryEngine({
  store: createSqliteStore({ path: 'mem.db' }), // the conversation survives restarts
  profile: {
    short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 8000 }],
    long_term_memory_strategy: [{ long_term_memory_id: 'summarizer', interaction_keep: 4 }],
  },
});
const session = new MemAgentsSession({ engine, sessionId: 'user-42' });

const result = await run(agent, 'What is the weather in Paris?', { session });
console.log(result.finalOutput);
