import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import {
  createInMemoryStore,
  createMemoryEngine,
  type MemoryEngine,
  MemValidationError,
  type Store,
} from '@mem/core';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { AnsweringChatModel } from './__fixtures__/answering-chat-model.ts';
import { storeKinds } from './__fixtures__/store-kinds.ts';
import { MemChatMessageHistory } from './mem-chat-message-history.ts';
import { memMiddleware } from './mem-middleware.ts';
import { memSessionHooks } from './mem-session-hooks.ts';

/** A window, a summarizer and a knowledge base searched for every model call (SPEC §6, users). */
const profile = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 2000 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      knowledge_base: { collection_id: 'chats', search_mode: 'always' },
    },
  ],
};

/** The first `MemValidationError` in `error`'s cause chain. */
function validationError(error: unknown): MemValidationError | undefined {
  for (let e = error; e !== undefined && e !== null; e = (e as { cause?: unknown }).cause) {
    if (e instanceof MemValidationError) return e;
  }
  return undefined;
}

const failure = (run: () => Promise<unknown>) =>
  run().then(
    () => undefined,
    (e: unknown) => e,
  );

const texts = (messages: readonly BaseMessage[] | undefined) =>
  JSON.stringify((messages ?? []).map((m) => [m.type, m.text]));
const systemTexts = (messages: readonly BaseMessage[] | undefined) =>
  (messages ?? [])
    .filter((m) => m.type === 'system')
    .map((m) => m.text)
    .join('\n');

/** A real `createAgent` on memMiddleware, over `store`, with a model that records its input. */
function openAgent(store: Store) {
  const engine = createMemoryEngine({ profile, store });
  const model = new AnsweringChatModel();
  const agent = createAgent({ model, middleware: [memMiddleware({ engine })] });
  /** One run in thread `thread_id` of `user_id`; what the model received. */
  const say = async (thread_id: string, user_id: unknown, text: string) => {
    await agent.invoke(
      { messages: [new HumanMessage(text)] },
      { configurable: { thread_id, user_id } },
    );
    return model.inputs.at(-1);
  };
  return { engine, model, agent, say };
}

/** Thread `monday` of Ana: two finished turns, learnt and indexed. */
async function anasMonday(
  say: (thread: string, user: string, text: string) => Promise<unknown>,
  engine: MemoryEngine,
) {
  await say('monday', 'ana', 'Hi, my name is Ana. My gym locker code is 4711.');
  await say('monday', 'ana', 'Thanks, that is all for today.');
  await engine.idle();
}

describe.each(storeKinds('users'))(
  'memMiddleware with configurable.user_id on createAgent, on the %s',
  (_, openStore) => {
    it('a new conversation of the same user recalls what the user said in an earlier one', async () => {
      const { engine, say } = openAgent(openStore());
      await anasMonday(say, engine);

      const input = await say('friday', 'ana', 'What is my locker code?');

      expect(texts(input)).toContain('4711');
      expect((await engine.session('friday').messages()).map((m) => m.content)).toStrictEqual([
        'What is my locker code?',
        'Answer to: What is my locker code?',
      ]);
    });

    it("another user's conversation does not", async () => {
      const { engine, say } = openAgent(openStore());
      await anasMonday(say, engine);

      const bens = await say('friday-ben', 'ben', 'What is my locker code?');
      const anas = await say('friday', 'ana', 'What is my locker code?');

      expect(texts(bens)).not.toContain('4711');
      expect(texts(bens)).not.toContain('Ana');
      expect(texts(anas)).toContain('4711'); // the same question, asked by Ana
    });

    it("the user's facts are in the prompt of a new conversation", async () => {
      const { engine, say } = openAgent(openStore());
      await anasMonday(say, engine);

      const anas = await say('tuesday', 'ana', 'Good morning!');
      const bens = await say('tuesday-ben', 'ben', 'Good morning!');

      expect(systemTexts(anas)).toContain('Ana');
      expect(systemTexts(bens)).not.toContain('Ana');
    });

    it('a thread of user A used with user B is refused with a MemValidationError naming userId, before the model is called', async () => {
      const { engine, model, say } = openAgent(openStore());
      await say('monday', 'ana', 'My gym locker code is 4711.');
      const calls = model.inputs.length;

      const error = await failure(() => say('monday', 'ben', 'Hi'));

      expect(validationError(error)?.field).toBe('userId');
      expect(model.inputs).toHaveLength(calls); // Ana's turns never reached the model
      expect((await engine.session('monday').messages()).map((m) => m.content)).toStrictEqual([
        'My gym locker code is 4711.',
        'Answer to: My gym locker code is 4711.',
      ]);
    });
  },
);

describe('user ids the LangChain adapters refuse', () => {
  const bad: unknown[] = ['', 42, null, '\uD800ana', 'a\nb', 'x'.repeat(513)];

  it('memMiddleware: a bad configurable.user_id fails the run, naming the field, and stores nothing', async () => {
    const { engine, model, say } = openAgent(createInMemoryStore());
    for (const user_id of bad) {
      const error = await failure(() => say('t', user_id, 'Hi'));
      expect(validationError(error)?.field).toBe('config.configurable.user_id');
      expect(validationError(error)?.message).toMatch(
        /^\[mem\/langchain\] memMiddleware: config\.configurable\.user_id must be the id of the user/,
      );
    }
    expect(model.inputs).toHaveLength(0);
    expect(await engine.session('t').history()).toStrictEqual([]);
  });

  it('memMiddleware({ userId }): a function may name the user (the thread is bound to it); a bad value it returns is refused', async () => {
    const engine = createMemoryEngine({ profile: {}, store: createInMemoryStore() });
    const agent = (userId: () => unknown) =>
      createAgent({
        model: new AnsweringChatModel(),
        middleware: [memMiddleware({ engine, userId: userId as () => string })],
      });
    const ask = (userId: () => unknown) =>
      agent(userId).invoke(
        { messages: [new HumanMessage('Hi')] },
        { configurable: { thread_id: 't' } },
      );

    await ask(() => 'ana');
    expect(await engine.session('t').history()).toHaveLength(2);
    expect((await engine.store.info('t'))?.userId).toBe('ana');
    const error = await failure(() => ask(() => 7));
    expect(validationError(error)?.field).toBe('userId (returned by the function)');
  });

  it('memSessionHooks: a bad configurable.user_id fails the run on createReactAgent, naming the field; a good one binds the thread', async () => {
    const engine = createMemoryEngine({ profile: {}, store: createInMemoryStore() });
    const llm = new AnsweringChatModel();
    const agent = createReactAgent({ llm, tools: [], ...memSessionHooks({ engine }) });
    for (const user_id of bad) {
      const error = await failure(() =>
        agent.invoke(
          { messages: [new HumanMessage('Hi')] },
          { configurable: { thread_id: 't', user_id } },
        ),
      );
      expect(validationError(error)?.field).toBe('config.configurable.user_id');
    }
    expect(llm.inputs).toHaveLength(0);
    await agent.invoke(
      { messages: [new HumanMessage('Hi')] },
      { configurable: { thread_id: 't', user_id: 'ana' } },
    );
    expect(await engine.session('t').history()).toHaveLength(2);
    expect((await engine.store.info('t'))?.userId).toBe('ana');
  });

  it('MemChatMessageHistory: a bad userId is refused at construction, naming the field', () => {
    const engine = createMemoryEngine({ profile: {}, store: createInMemoryStore() });
    for (const userId of bad) {
      let caught: unknown;
      try {
        new MemChatMessageHistory({ engine, sessionId: 's', userId } as never);
      } catch (error) {
        caught = error;
      }
      expect(validationError(caught)?.field).toBe('userId');
    }
    expect(new MemChatMessageHistory({ engine, sessionId: 's', userId: 'ana' }).session.id).toBe(
      's',
    );
  });
});

describe('MemChatMessageHistory({ userId })', () => {
  it("a new conversation of the user gets the earlier one's facts and recall; another user's does not", async () => {
    const engine = createMemoryEngine({ profile, store: createInMemoryStore() });
    const monday = new MemChatMessageHistory({ engine, sessionId: 'monday', userId: 'ana' });
    await monday.addMessages([
      new HumanMessage('Hi, my name is Ana. My gym locker code is 4711.'),
      new AIMessage('Noted.'),
      new HumanMessage('Thanks, that is all for today.'),
      new AIMessage('Bye!'),
    ]);
    await engine.idle();

    const friday = new MemChatMessageHistory({ engine, sessionId: 'friday', userId: 'ana' });
    await friday.addMessage(new HumanMessage('What is my locker code?'));
    const bens = new MemChatMessageHistory({ engine, sessionId: 'friday-ben', userId: 'ben' });
    await bens.addMessage(new HumanMessage('What is my locker code?'));

    expect(texts(await friday.getMessages())).toContain('4711');
    expect(systemTexts(await friday.getMessages())).toContain('Ana');
    expect(texts(await bens.getMessages())).not.toContain('4711');
  });
});
