import { MemoryManager } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import OpenAI from 'openai';

const openai = new OpenAI();
const complete = async (prompt: string) => {
  const completion = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: prompt }],
  });
  return completion.choices[0]!.message.content ?? '';
};

// Many sessions, entry by entry; old entries are compressed by your LLM (else extractively).
const memory = new MemoryManager({
  store: createSqliteStore({ path: 'mem.db' }),
  maxTokens: 50_000,
  summarizeCallback: complete,
});
const sessionId = 'repo-agent';

await memory.addUserMessage(sessionId, 'Which files are in the repository?');
await memory.addToolCall(sessionId, 'shell', { command: 'ls' });
await memory.addToolResult(sessionId, 'shell', 'README.md\npackage.json\nsrc');
// Summaries, then the recent conversation, as text for the prompt.
const context = await memory.getContextForLLM(sessionId);
const answer = await complete(`${context}\n\nReply to the user's last message.`);
await memory.addAssistantMessage(sessionId, answer);
console.log(answer, await memory.getStats(sessionId));
