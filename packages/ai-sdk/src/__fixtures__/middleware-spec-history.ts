import { createMemoryEngine, MemValidationError } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoryMiddleware } from '../index.ts';
import { textResult, toolCallResult } from './model-results.ts';
import {
  lastUserText,
  line,
  type Prompt,
  type SdkUnderTest,
  storeKinds,
} from './sdk-under-test.ts';

type Said = [role: 'user' | 'assistant', text: string];
const asMessages = (said: readonly Said[]) => said.map(([role, content]) => ({ role, content }));
const asLines = (said: readonly Said[]) => said.map(([role, text]) => `${role}: ${text}`);

/** Clients that re-send the history, changed or with messages left out (README "What counts as new"). */
export function describeChangedHistory(name: string, sdk: SdkUnderTest): void {
  for (const [storeName, createStore] of storeKinds()) {
    const setup = (options: object = {}, profile: object = {}) => {
      const engine = createMemoryEngine({ store: createStore(), profile });
      let calls = 0;
      // Answers name the question and count the calls, so a regenerated answer differs.
      const model = new sdk.MockLanguageModel({
        doGenerate: async ({ prompt }: { prompt: Prompt }) => {
          calls++;
          const question = lastUserText(prompt);
          return question === 'Weather in Paris?' && calls === 1
            ? toolCallResult('call-1', 'weather', { city: 'Paris' })
            : textResult(`${question} -> #${calls}`);
        },
      });
      const wrapped = sdk.wrapLanguageModel({
        model: model as never,
        middleware: memoryMiddleware({ engine, sessionId: 'chat-1', ...options }) as never,
      });
      const send = (said: readonly Said[]) =>
        sdk.generateText({ model: wrapped, messages: asMessages(said), maxRetries: 0 });
      const stored = async () => (await engine.session('chat-1').messages()).map(line);
      return { engine, model, send, stored, wrapped };
    };
    // Two turns stored the usual way: the app sends only the new message.
    const twoTurns = async (send: (said: readonly Said[]) => PromiseLike<unknown>) => {
      await send([['user', "I'm Ada."]]);
      await send([['user', 'I live in Lyon.']]);
    };
    const u1: Said = ['user', "I'm Ada."];
    const a1: Said = ['assistant', "I'm Ada. -> #1"];
    const u2: Said = ['user', 'I live in Lyon.'];
    const a2: Said = ['assistant', 'I live in Lyon. -> #2'];
    const weather = () =>
      sdk.tool({
        description: 'Current weather in a city',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }: { city: string }) => ({ city, tempC: 18 }),
      });
    const toolTurn = [
      'user: Weather in Paris?',
      'assistant:  -> weather#call-1 {"city":"Paris"}',
      'tool#call-1: {"city":"Paris","tempC":18}',
      'assistant: Weather in Paris? -> #2',
    ];

    describe(`re-sent history with ${name}, on ${storeName}`, () => {
      it('an edited first message replaces the stored conversation from it on, nothing twice', async () => {
        const { send, stored, model } = setup();
        await twoTurns(send);

        await send([['user', "I'm Bea."], a1, u2, a2, ['user', 'Who am I?']]);

        const expected = asLines([['user', "I'm Bea."], a1, u2, a2, ['user', 'Who am I?']]);
        expect(await stored()).toEqual([...expected, 'assistant: Who am I? -> #3']);
        expect(model.doGenerateCalls[2]?.prompt).toHaveLength(5);
      });

      it('an edited middle message replaces the stored messages from it on', async () => {
        const { send, stored } = setup();
        await twoTurns(send);

        await send([u1, a1, ['user', 'I live in Nice.']]);

        expect(await stored()).toEqual(
          asLines([u1, a1, ['user', 'I live in Nice.'], ['assistant', 'I live in Nice. -> #3']]),
        );
      });

      it('a regenerated answer replaces the old one: one answer stays for the question', async () => {
        const { send, stored } = setup();
        await twoTurns(send);

        const again = await send([u1, a1, u2]);

        expect(again.text).toBe('I live in Lyon. -> #3');
        expect(await stored()).toEqual(
          asLines([u1, a1, u2, ['assistant', 'I live in Lyon. -> #3']]),
        );
      });

      it('a tool call and result the client leaves out stay stored; nothing is stored twice', async () => {
        const { send, stored, wrapped } = setup();
        await sdk.generateText({
          model: wrapped,
          prompt: 'Weather in Paris?',
          tools: { weather: weather() },
          stopWhen: sdk.stepCountIs(2),
        });
        expect(await stored()).toEqual(toolTurn);

        await send([
          ['user', 'Weather in Paris?'],
          ['assistant', 'Weather in Paris? -> #2'],
          ['user', 'And tomorrow?'],
        ]);

        expect(await stored()).toEqual([
          ...toolTurn,
          'user: And tomorrow?',
          'assistant: And tomorrow? -> #3',
        ]);
      });

      it('re-sending [...prompt, ...result.response.messages, next] after a tool loop stores nothing twice', async () => {
        const { stored, wrapped } = setup();
        const first = [{ role: 'user', content: 'Weather in Paris?' }];
        const result = await sdk.generateText({
          model: wrapped,
          messages: first,
          tools: { weather: weather() },
          stopWhen: sdk.stepCountIs(2),
        });

        await sdk.generateText({
          model: wrapped,
          messages: [...first, ...result.response.messages, { role: 'user', content: 'Thanks!' }],
          tools: { weather: weather() },
        });

        expect(await stored()).toEqual([...toolTurn, 'user: Thanks!', 'assistant: Thanks! -> #3']);
      });

      it('a single coincidental match ("yes" said again) removes nothing', async () => {
        const { send, stored } = setup();
        await send([['user', 'Book me a train to Lyon.']]);
        await send([['user', 'yes']]);

        await send([
          ['user', 'yes'],
          ['user', 'And a hotel.'],
        ]);

        expect(await stored()).toEqual([
          'user: Book me a train to Lyon.',
          'assistant: Book me a train to Lyon. -> #1',
          'user: yes',
          'assistant: yes -> #2',
          'user: yes',
          'user: And a hotel.',
          'assistant: And a hotel. -> #3',
        ]);
      });

      it("changedHistory: 'error' refuses an edited history, stores nothing and calls no model", async () => {
        const { send, stored, model } = setup({ changedHistory: 'error' });
        await twoTurns(send);

        const edited = send([u1, a1, ['user', 'I live in Nice.']]);

        await expect(edited).rejects.toSatisfy(
          (e: unknown) =>
            e instanceof MemValidationError &&
            e.field === 'prompt' &&
            /changedHistory: 'error'/.test(e.message) &&
            /Send only the new messages/.test(e.message),
        );
        expect(await stored()).toEqual(asLines([u1, a1, u2, a2]));
        expect(model.doGenerateCalls).toHaveLength(2);
        await send([u1, a1, u2, a2, ['user', 'Thanks.']]);
        expect(await stored()).toEqual([
          ...asLines([u1, a1, u2, a2]),
          'user: Thanks.',
          'assistant: Thanks. -> #3',
        ]);
      });

      it('refuses a change that would remove more stored messages than the prompt holds', async () => {
        const { send, stored } = setup();
        await twoTurns(send);
        await send([['user', 'I like tea.']]);

        const edited = send([u1, a1, ['user', 'I live in Nice.']]);

        await expect(edited).rejects.toSatisfy(
          (e: unknown) =>
            e instanceof MemValidationError && /remove 4 stored messages/.test(e.message),
        );
        expect(await stored()).toHaveLength(6);
      });

      it('refuses a change that reaches into summarized history', async () => {
        const profile = {
          long_term_memory_strategy: [
            {
              long_term_memory_id: 'summarizer',
              interaction_threshold_qty: 1,
              interaction_keep: 1,
            },
          ],
        };
        const { send, engine } = setup({}, profile);
        await twoTurns(send);
        await engine.idle();
        const session = engine.session('chat-1');
        expect(await session.summaries()).toHaveLength(1);

        const edited = send([['user', "I'm Bea."], a1, u2, a2, ['user', 'Who am I?']]);

        await expect(edited).rejects.toSatisfy(
          (e: unknown) =>
            e instanceof MemValidationError && /a summary has replaced/.test(e.message),
        );
        expect((await session.history()).map(line)).toEqual(asLines([u1, a1, u2, a2]));
      });
    });
  }
}
