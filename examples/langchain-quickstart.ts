import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { ChatOpenAI } from '@langchain/openai';
import { createMemoryEngine } from '@mem/core';
import { MemChatMessageHistory } from '@mem/langchain';
import { createSqliteStore } from '@mem/store-sqlite';

const engine = createMemoryEngine({
  store: createSqliteStore({ path: 'mem.db' }), // the conversation survives restarts
  profile: {
    short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 8000 }],
    long_term_memory_strategy: [{ long_term_memory_id: 'summarizer', interaction_keep: 4 }],
  },
});
const prompt = ChatPromptTemplate.fromMessages([
  ['system', 'You are a support agent.'],
  new MessagesPlaceholder('history'), // mem's context: the summary + the newest turns
  ['human', '{input}'],
]);
const chat = new RunnableWithMessageHistory({
  runnable: prompt.pipe(new ChatOpenAI({ model: 'gpt-4o-mini' })), // reads OPENAI_API_KEY
  getMessageHistory: (sessionId) => new MemChatMessageHistory({ engine, sessionId }),
  inputMessagesKey: 'input',
  historyMessagesKey: 'history',
});

const reply = await chat.invoke(
  { input: 'My order AF-1042 arrived broken. What now?' },
  { configurable: { sessionId: 'user-42' } }, // question and reply are stored in the session
);
console.log(reply.text);
