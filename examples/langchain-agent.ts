import { ChatOpenAI } from '@langchain/openai';
import { createMemoryEngine } from '@mem/core';
import { memMiddleware } from '@mem/langchain';
import { createSqliteStore } from '@mem/store-sqlite';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';

const engine = createMemoryEngine({
  store: createSqliteStore({ path: 'mem.db' }), // threads survive restarts
  profile: {
    short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 8000 }],
    long_term_memory_strategy: [{ long_term_memory_id: 'summarizer', interaction_keep: 4 }],
  },
});
const trackOrder = tool(async ({ id }) => `Order ${id}: delivered, reported broken.`, {
  name: 'track_order',
  description: 'Status of an order.',
  schema: z.object({ id: z.string() }),
});
const agent = createAgent({
  model: new ChatOpenAI({ model: 'gpt-4o-mini' }), // reads OPENAI_API_KEY
  tools: [trackOrder],
  systemPrompt: 'You are a support agent.',
  middleware: [memMiddleware({ engine })],
});

const config = { configurable: { thread_id: 'user-42' } }; // the mem session
await agent.invoke({ messages: [{ role: 'user', content: 'Where is my order AF-1042?' }] }, config);
const reply = await agent.invoke({ messages: [{ role: 'user', content: 'What now?' }] }, config);
console.log(reply.messages.at(-1)?.text); // the model saw the first turn, from mem
