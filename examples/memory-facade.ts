import { Memory, toOpenAIMessages } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import OpenAI from 'openai';

const openai = new OpenAI();
// One conversation, bounded by a 4,000-token window; older turns are summarized (auto).
const memory = new Memory({
  strategy: 'auto',
  maxTokens: 4000,
  store: createSqliteStore({ path: 'mem.db' }),
  sessionId: 'user-42', // reopen the same conversation on the next run
});

const question = 'Which plan did I pick, and why?';
const completion = await openai.chat.completions.create({
  model: 'gpt-4o-mini',
  messages: [...toOpenAIMessages(await memory.messages()), { role: 'user', content: question }],
});
const answer = completion.choices[0]!.message.content ?? '';
await memory.add(question, answer); // one turn: the question and its answer
console.log(answer);
