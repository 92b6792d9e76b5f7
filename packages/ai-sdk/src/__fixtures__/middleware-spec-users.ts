import { createMemoryEngine, type MemoryEngine, MemValidationError } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { memoryMiddleware } from '../index.ts';
import type { MemoryMiddlewareOptions } from '../memory-middleware-options.ts';
import { textResult } from './model-results.ts';
import { line, type Prompt, type SdkUnderTest, storeKinds } from './sdk-under-test.ts';

/** A window, a summarizer and a knowledge base searched for every call (SPEC §6, users). */
export const USER_PROFILE = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 2000 }],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      knowledge_base: { collection_id: 'chats', search_mode: 'always' },
    },
  ],
};

const systemText = (prompt: Prompt) =>
  prompt
    .filter((m) => m.role === 'system')
    .map((m) => String(m.content))
    .join('\n');

/** What `error` is, or the first `cause` down its chain that is a `MemValidationError`. */
function validationError(error: unknown): MemValidationError | undefined {
  for (let e = error; e !== undefined && e !== null; e = (e as { cause?: unknown }).cause) {
    if (e instanceof MemValidationError) return e;
  }
  return undefined;
}

/** Conversations that belong to users: recall and facts across them, never across users. */
export function describeUserMemory(name: string, sdk: SdkUnderTest): void {
  const setup = (createStore: () => import('@mem/core').Store) => {
    const engine = createMemoryEngine({ store: createStore(), profile: USER_PROFILE });
    const model = new sdk.MockLanguageModel({ doGenerate: async () => textResult('Noted.') });
    const wrap = (options: Omit<MemoryMiddlewareOptions, 'engine'>) =>
      sdk.wrapLanguageModel({
        model: model as never,
        middleware: memoryMiddleware({ engine, ...options }) as never,
      });
    /** One call in conversation `sessionId` of `userId`; the prompt the model received. */
    const say = async (sessionId: string, userId: string, text: string): Promise<Prompt> => {
      await sdk.generateText({ model: wrap({ sessionId, userId }), prompt: text });
      return model.doGenerateCalls.at(-1)?.prompt ?? [];
    };
    return { engine, model, wrap, say };
  };
  /** Conversation `monday` of Ana: two finished turns, learnt and indexed. */
  const anasMonday = async (
    say: (sessionId: string, userId: string, text: string) => Promise<Prompt>,
    engine: MemoryEngine,
  ) => {
    await say('monday', 'ana', 'Hi, my name is Ana. My gym locker code is 4711.');
    await say('monday', 'ana', 'Thanks, that is all for today.');
    await engine.idle();
  };

  for (const [storeName, createStore] of storeKinds()) {
    describe(`memoryMiddleware({ userId }) with ${name}, on ${storeName}`, () => {
      it('a new conversation of the same user recalls what the user said in an earlier one', async () => {
        const { engine, say } = setup(createStore);
        await anasMonday(say, engine);

        const prompt = await say('friday', 'ana', 'What is my locker code?');

        expect(JSON.stringify(prompt)).toContain('4711');
        // Friday holds only its own turn: the code came from Monday's conversation.
        expect((await engine.session('friday').messages()).map(line)).toEqual([
          'user: What is my locker code?',
          'assistant: Noted.',
        ]);
      });

      it("another user's conversation does not", async () => {
        const { engine, say } = setup(createStore);
        await anasMonday(say, engine);

        const bens = await say('friday-ben', 'ben', 'What is my locker code?');
        const anas = await say('friday', 'ana', 'What is my locker code?');

        expect(JSON.stringify(bens)).not.toContain('4711');
        expect(JSON.stringify(bens)).not.toContain('Ana');
        expect(JSON.stringify(anas)).toContain('4711'); // the same question, asked by Ana
      });

      it("the user's facts are in the prompt of a new conversation", async () => {
        const { engine, say } = setup(createStore);
        await anasMonday(say, engine);

        const prompt = await say('tuesday', 'ana', 'Good morning!');

        expect(systemText(prompt)).toContain('Ana');
        const bens = await say('tuesday-ben', 'ben', 'Good morning!');
        expect(systemText(bens)).not.toContain('Ana');
      });

      it('a conversation of user A used with user B is refused with a MemValidationError naming userId, and stays as it was, before the model is called', async () => {
        const { engine, model, say, wrap } = setup(createStore);
        await say('monday', 'ana', 'My gym locker code is 4711.');
        const calls = model.doGenerateCalls.length;

        const error = await sdk
          .generateText({ model: wrap({ sessionId: 'monday', userId: 'ben' }), prompt: 'Hi' })
          .then(
            () => undefined,
            (e: unknown) => e,
          );

        expect(validationError(error)?.field).toBe('userId');
        expect(model.doGenerateCalls).toHaveLength(calls); // Ana's turns never reached the model
        expect((await engine.session('monday').messages()).map(line)).toEqual([
          'user: My gym locker code is 4711.',
          'assistant: Noted.',
        ]);
      });
    });
  }

  describe(`memoryMiddleware({ userId: function }) with ${name}`, () => {
    const [[, createStore]] = storeKinds() as [[string, () => import('@mem/core').Store]];

    it('takes the user from each call; undefined from the function is a call without a user', async () => {
      const { engine, model, wrap } = setup(createStore);
      const wrapped = wrap({
        sessionId: (p) => p.headers?.['x-chat'] ?? 'none',
        userId: (p) => p.headers?.['x-user'],
      });
      const ask = async (chat: string, user: string | undefined, prompt: string) => {
        const h: Record<string, string> = { 'x-chat': chat };
        if (user !== undefined) h['x-user'] = user;
        await sdk.generateText({ model: wrapped, prompt, headers: h });
        return JSON.stringify(model.doGenerateCalls.at(-1)?.prompt);
      };
      await ask('monday', 'ana', 'My gym locker code is 4711.');
      await ask('monday', 'ana', 'Thanks, bye.');
      await engine.idle();

      expect(await ask('friday', 'ana', 'What is my locker code?')).toContain('4711');
      expect(await ask('anonymous', undefined, 'What is my locker code?')).not.toContain('4711');
    });

    it('refuses a bad user id from the function at the call, naming what returned it', async () => {
      const { wrap } = setup(createStore);
      for (const bad of ['', 7, '\uD800ana']) {
        const wrapped = wrap({ sessionId: 'chat', userId: () => bad as never });
        const error = await sdk.generateText({ model: wrapped, prompt: 'Hi' }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(validationError(error)?.field).toBe('userId (returned by the function)');
      }
    });
  });
}
