import { createMemoryEngine, type MemoryEngine, MemValidationError, type Store } from '@mem/core';
import { run } from '@openai/agents';
import { afterEach, describe, expect, it } from 'vitest';
import { assistantText, startResponsesServer } from './__fixtures__/responses-server.ts';
import { storeKinds } from './__fixtures__/store-kinds.ts';
import { weatherAgent } from './__fixtures__/weather-agent.ts';
import { MemAgentsSession } from './mem-agents-session.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A window, a summarizer and a knowledge base searched for every request (SPEC §6, users). */
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

/** The SDK's real runner against the loopback Responses server, on `store`. */
async function setup(store: Store) {
  const server = await startResponsesServer((_, n) => [assistantText(`msg_${n}`, 'Noted.')]);
  cleanups.push(() => server.close());
  const agent = weatherAgent(server.baseURL);
  const engine = createMemoryEngine({ profile, store });
  /** One run in conversation `sessionId` of `userId`; the input the model received. */
  const say = async (sessionId: string, userId: string, text: string) => {
    const session = new MemAgentsSession({ engine, sessionId, userId });
    await run(agent, text, { session, sessionInputCallback: session.sessionInputCallback });
    return server.requests.at(-1)?.input ?? [];
  };
  return { engine, say, agent, server };
}

/** Conversation `monday` of Ana: two finished turns, learnt and indexed. */
async function anasMonday(
  say: (sessionId: string, userId: string, text: string) => Promise<unknown>,
  engine: MemoryEngine,
) {
  await say('monday', 'ana', 'Hi, my name is Ana. My gym locker code is 4711.');
  await say('monday', 'ana', 'Thanks, that is all for today.');
  await engine.idle();
}

const systemText = (input: Array<Record<string, unknown>>) =>
  JSON.stringify(input.filter((item) => item.role === 'system' || item.role === 'developer'));

describe.each(storeKinds('users'))(
  'MemAgentsSession({ userId }) with run() on the %s',
  (_, openStore) => {
    it('a new conversation of the same user recalls what the user said in an earlier one', async () => {
      const { engine, say } = await setup(openStore());
      await anasMonday(say, engine);

      const input = await say('friday', 'ana', 'What is my locker code?');

      expect(JSON.stringify(input)).toContain('4711');
      const questions = input.filter((item) => item.role === 'user');
      expect(questions).toStrictEqual([{ role: 'user', content: 'What is my locker code?' }]);
      expect(input.at(-1)).toStrictEqual(questions[0]);
      // mem's own items (facts, recalled knowledge) reached the model and were not stored.
      expect((await engine.session('friday').messages()).map((m) => m.content)).toStrictEqual([
        'What is my locker code?',
        'Noted.',
      ]);
    });

    it("another user's conversation does not", async () => {
      const { engine, say } = await setup(openStore());
      await anasMonday(say, engine);

      const bens = await say('friday-ben', 'ben', 'What is my locker code?');
      const anas = await say('friday', 'ana', 'What is my locker code?');

      expect(JSON.stringify(bens)).not.toContain('4711');
      expect(JSON.stringify(bens)).not.toContain('Ana');
      expect(JSON.stringify(anas)).toContain('4711'); // the same question, asked by Ana
    });

    it("the user's facts are in the prompt of a new conversation", async () => {
      const { engine, say } = await setup(openStore());
      await anasMonday(say, engine);

      const anas = await say('tuesday', 'ana', 'Good morning!');
      const bens = await say('tuesday-ben', 'ben', 'Good morning!');

      expect(systemText(anas)).toContain('Ana');
      expect(systemText(bens)).not.toContain('Ana');
    });

    it('a conversation of user A used with user B is refused with a MemValidationError naming userId, and stays as it was, before the model is called', async () => {
      const { engine, say, agent, server } = await setup(openStore());
      await say('monday', 'ana', 'My gym locker code is 4711.');
      const requests = server.requests.length;

      const error = await (async () =>
        run(agent, 'Hi', {
          session: new MemAgentsSession({ engine, sessionId: 'monday', userId: 'ben' }),
        }))().then(
        () => undefined,
        (e: unknown) => e,
      );

      expect(validationError(error)?.field).toBe('userId');
      expect(server.requests).toHaveLength(requests); // Ana's turns never reached the model
      expect((await engine.session('monday').messages()).map((m) => m.content)).toStrictEqual([
        'My gym locker code is 4711.',
        'Noted.',
      ]);
    });
  },
);

describe('MemAgentsSession userId', () => {
  const engine = createMemoryEngine({ profile: {} });

  it('refuses an empty, non-string or ill-formed userId, naming the field and what to pass', () => {
    for (const userId of ['', 42, null, '\uD800ana', 'a\nb', 'x'.repeat(513)]) {
      let caught: unknown;
      try {
        new MemAgentsSession({ engine, sessionId: 's', userId } as never);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(MemValidationError);
      expect((caught as MemValidationError).field).toBe('userId');
      expect((caught as Error).message).toMatch(
        /^\[mem\/openai-agents\] options\.userId must be the id of the user the conversation belongs to/,
      );
    }
  });

  it('takes a well-formed id, and no userId at all', async () => {
    const session = new MemAgentsSession({ engine, sessionId: 's', userId: 'ana 🙂' });
    expect(await session.getSessionId()).toBe('s');
    expect(await new MemAgentsSession({ engine, sessionId: 't' }).getSessionId()).toBe('t');
  });
});
