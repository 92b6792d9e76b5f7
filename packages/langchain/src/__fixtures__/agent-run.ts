import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createMemoryEngine, type Store } from '@mem/core';
import { createSqliteStore } from '@mem/store-sqlite';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { memMiddleware } from '../mem-middleware.ts';
import { AnsweringChatModel } from './answering-chat-model.ts';

export const getWeather = tool(async ({ city }) => `18°C and sunny in ${city}.`, {
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: z.object({ city: z.string() }),
});

/**
 * One run of an app: its own store (a SQLite file at `place`, or the store given) and engine, and a real `createAgent` on
 * mem's middleware with a model that answers from its input.
 */
export function openAgent(
  place: string | Store,
  profile: unknown,
  options: { delayMs?: number } = {},
) {
  const store = typeof place === 'string' ? createSqliteStore({ path: place }) : place;
  const engine = createMemoryEngine({ profile, store });
  const model = new AnsweringChatModel(options.delayMs);
  const agent = createAgent({
    model,
    tools: [getWeather],
    middleware: [memMiddleware({ engine })],
  });
  const ask = (text: string, thread_id: string) =>
    agent.invoke({ messages: [new HumanMessage(text)] }, { configurable: { thread_id } });
  const history = async (thread: string) => await engine.session(thread).history();
  return {
    engine,
    model,
    agent,
    ask,
    history,
    close: () => store.close(),
  };
}
