import { createMemoryEngine, fromOpenAIMessages, toOpenAIMessages } from '@mem/core';
import { createSqliteKnowledgeBase, createSqliteStore } from '@mem/store-sqlite';
import OpenAI from 'openai';

const openai = new OpenAI(); // reads OPENAI_API_KEY (and OPENAI_BASE_URL, for any compatible server)
const engine = createMemoryEngine({
  store: createSqliteStore({ path: 'mem.db' }),
  knowledgeBase: createSqliteKnowledgeBase({ path: 'mem.db' }), // recall across the user's chats
  profile: {
    short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
    long_term_memory_strategy: [
      { long_term_memory_id: 'summarizer', knowledge_base: { collection_id: 'chats' } },
    ],
  },
});

/** One turn of a chat of Ana's: her message, the prompt mem builds, the model's reply stored. */
async function chat(chatId: string, text: string): Promise<string> {
  const session = engine.session(chatId, { userId: 'ana' });
  await session.append({ role: 'user', content: text });
  const { messages } = await session.context();
  const completion = await openai.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: toOpenAIMessages(messages),
  });
  const reply = completion.choices[0]!.message;
  await session.append(fromOpenAIMessages([reply]));
  return reply.content ?? '';
}

await chat('monday', 'Hi! I live in Lisbon. My gym locker code is 4711, by the way.');
await chat('monday', 'Actually, I moved to Porto last month.'); // corrects a fact
await engine.idle(); // facts are learnt in the background, after each finished turn

// A new chat starts with what Ana told mem before: her facts, and Monday's turns when relevant.
console.log(await chat('friday', 'What was my locker code again?'));
console.log((await engine.user('ana').facts()).map((fact) => fact.text));

// "Forget me": every chat, summary, chunk and fact of Ana's, from the file.
console.log(await engine.forgetUser('ana'));
