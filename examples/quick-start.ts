import { createMemoryEngine, fromOpenAIMessages, toOpenAIMessages } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import OpenAI from 'openai';

const openai = new OpenAI(); // reads OPENAI_API_KEY (and OPENAI_BASE_URL, for any compatible server)
const engine = createMemoryEngine({
  store: createSqliteStore({ path: 'mem.db' }), // the conversation survives restarts
  profile: {
    short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 8000 }],
    long_term_memory_strategy: [{ long_term_memory_id: 'summarizer', interaction_keep: 4 }],
  },
});
const session = engine.session('user-42');

await session.append({ role: 'user', content: 'My order AF-1042 arrived broken. What now?' });
const { messages } = await session.context(); // the summary + the newest turns, within 8,000 tokens
const completion = await openai.chat.completions.create({
  model: 'gpt-4o-mini',
  messages: toOpenAIMessages(messages),
});
const reply = completion.choices[0]!.message;
await session.append(fromOpenAIMessages([reply])); // stored for the next call
console.log(reply.content);
