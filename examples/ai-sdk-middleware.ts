import { openai } from '@ai-sdk/openai';
import { memoryMiddleware } from '@mem/ai-sdk';
import { createMemoryEngine } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import { generateText, wrapLanguageModel } from 'ai';

const engine = createMemoryEngine({
  store: createSqliteStore({ path: 'mem.db' }), // the conversation survives restarts
  profile: {
    short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 8000 }],
    long_term_memory_strategy: [{ long_term_memory_id: 'summarizer', interaction_keep: 4 }],
  },
});
const model = wrapLanguageModel({
  model: openai.chat('gpt-4o-mini'), // reads OPENAI_API_KEY (and OPENAI_BASE_URL); any provider works
  middleware: memoryMiddleware({ engine, sessionId: 'user-42' }),
});

// No history to pass around: each call is stored, and the next one gets the summary + newest turns.
await generateText({ model, prompt: 'My order AF-1042 arrived broken.' });
const { text } = await generateText({ model, prompt: 'Which order was that about?' });
console.log(text);
