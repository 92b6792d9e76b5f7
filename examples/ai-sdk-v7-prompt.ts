import { openai } from '@ai-sdk/openai';
import {
  createInMemoryStore,
  createMemoryEngine,
  fromModelMessages,
  toModelPrompt,
} from '@mem/core';
import { generateText } from 'ai';

const engine = createMemoryEngine({
  store: createInMemoryStore(),
  profile: {
    short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 8000 }],
  },
});
const session = engine.session('user-42');

await session.append({ role: 'system', content: 'You are the support agent of Acme.' });
await session.append({ role: 'user', content: 'My order AF-1042 arrived broken. What now?' });
const context = await session.context(); // system prompt, summary, knowledge + the newest turns
const result = await generateText({
  model: openai.chat('gpt-4o-mini'), // reads OPENAI_API_KEY (and OPENAI_BASE_URL)
  ...toModelPrompt(context.messages, { systemAs: 'instructions' }), // system content apart
});
await session.append(fromModelMessages(result.responseMessages)); // every step's messages
console.log(result.text);
