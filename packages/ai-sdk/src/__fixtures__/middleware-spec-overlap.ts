import { createMemoryEngine, MemError, type MemoryEngine, type Store } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoryMiddleware } from '../index.ts';
import { textResult, textStreamParts, toolCallResult } from './model-results.ts';
import {
  lastUserText,
  line,
  type MockModel,
  type Prompt,
  type SdkUnderTest,
  storeKinds,
} from './sdk-under-test.ts';

const tick = (ms = 1) => new Promise((resolve) => setTimeout(resolve, ms));
const questions = Array.from({ length: 20 }, (_, i) => `q${i}`);

/** Stored lines as (question, answer) pairs; throws when a question is not followed by its answer. */
function pairs(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const q = lines[i]?.replace(/^user: /, '');
    expect(lines[i + 1], `the message after ${lines[i]}`).toBe(`assistant: answer to ${q}`);
    out.push(q ?? '');
  }
  return out.sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
}

/** Each model call saw the earlier calls' completed pairs and its own question last. */
function expectOwnContexts(prompts: readonly Prompt[]): void {
  prompts.forEach((prompt, k) => {
    expect(prompt).toHaveLength(2 * k + 1);
    expect(prompt.map((m) => m.role)).toEqual([
      ...Array.from({ length: k }, () => ['user', 'assistant']).flat(),
      'user',
    ]);
  });
}

/** Overlapping calls on one session: serialized, each with its own context and answer. */
export function describeOverlappingCalls(name: string, sdk: SdkUnderTest): void {
  const wrap = (engine: MemoryEngine, model: MockModel, options: object = {}) =>
    sdk.wrapLanguageModel({
      model: model as never,
      middleware: memoryMiddleware({ engine, sessionId: 'chat-1', ...options }) as never,
    });
  const stored = async (engine: MemoryEngine) =>
    (await engine.session('chat-1').messages()).map(line);

  for (const [storeName, createStore] of storeKinds()) {
    const engineOn = (store: Store = createStore()) => createMemoryEngine({ store, profile: {} });

    describe(`overlapping calls on one session with ${name}, on ${storeName}`, () => {
      it("stores each of 20 overlapping generateText calls' question and answer as a pair", async () => {
        const engine = engineOn();
        const model = new sdk.MockLanguageModel({
          doGenerate: async ({ prompt }: { prompt: Prompt }) => {
            await tick();
            return textResult(`answer to ${lastUserText(prompt)}`);
          },
        });
        const wrapped = wrap(engine, model);

        const results = await Promise.all(
          questions.map((q) => sdk.generateText({ model: wrapped, prompt: q })),
        );

        expect(results.map((r) => r.text)).toEqual(questions.map((q) => `answer to ${q}`));
        const lines = await stored(engine);
        expect(lines).toHaveLength(40);
        expect(pairs(lines)).toEqual(questions);
        expectOwnContexts(model.doGenerateCalls.map((c) => c.prompt));
      });

      it("stores each of 20 overlapping streamText calls' question and answer as a pair", async () => {
        const engine = engineOn();
        const model = new sdk.MockLanguageModel({
          doStream: async ({ prompt }: { prompt: Prompt }) => ({
            stream: sdk.simulateReadableStream({
              chunks: textStreamParts(['answer ', 'to ', lastUserText(prompt)]),
              chunkDelayInMs: 1,
            }),
          }),
        });
        const wrapped = wrap(engine, model);

        const texts = await Promise.all(
          questions.map((q) => sdk.streamText({ model: wrapped, prompt: q }).text),
        );

        expect(texts).toEqual(questions.map((q) => `answer to ${q}`));
        const lines = await stored(engine);
        expect(lines).toHaveLength(40);
        expect(pairs(lines)).toEqual(questions);
        expectOwnContexts(model.doStreamCalls.map((c) => c.prompt));
      });

      it('every way a call can fail releases the session for the next call', async () => {
        const engine = engineOn();
        const broken = () =>
          new ReadableStream({
            start(controller) {
              controller.enqueue({ type: 'stream-start', warnings: [] });
              controller.error(new Error('connection reset'));
            },
          });
        const failing = new sdk.MockLanguageModel({
          doGenerate: async () => {
            throw new Error('provider down');
          },
          doStream: [{ stream: broken() }],
        });
        const wrappedFailing = wrap(engine, failing);
        const throwingStream = wrap(
          engine,
          new sdk.MockLanguageModel({
            doStream: async () => {
              throw new Error('refused');
            },
          }),
        );
        const ok = wrap(
          engine,
          new sdk.MockLanguageModel({
            doGenerate: async ({ prompt }: { prompt: Prompt }) =>
              textResult(`answer to ${lastUserText(prompt)}`),
          }),
        );

        await expect(
          sdk.generateText({ model: wrappedFailing, prompt: 'g', maxRetries: 0 }),
        ).rejects.toThrow('provider down');
        await sdk
          .streamText({ model: wrappedFailing, prompt: 's', maxRetries: 0, onError: () => {} })
          .consumeStream({ onError: () => {} });
        await sdk
          .streamText({ model: throwingStream, prompt: 't', maxRetries: 0, onError: () => {} })
          .consumeStream({ onError: () => {} });
        const last = await Promise.race([
          sdk.generateText({ model: ok, prompt: 'after' }).then((r) => r.text),
          tick(5000).then(() => 'still locked'),
        ]);

        expect(last).toBe('answer to after');
        expect(await stored(engine)).toEqual([
          'user: g',
          'user: s',
          'user: t',
          'user: after',
          'assistant: answer to after',
        ]);
      });

      it("refuses a tool loop's next step when another call's turn was stored between its steps", async () => {
        const engine = engineOn();
        const model = new sdk.MockLanguageModel({
          doGenerate: async ({ prompt }: { prompt: Prompt }) =>
            lastUserText(prompt) === 'Other question?'
              ? textResult('Other answer.')
              : toolCallResult('call-1', 'weather', { city: 'Paris' }),
        });
        const wrapped = wrap(engine, model);
        const weather = sdk.tool({
          description: 'Current weather in a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async () => {
            // Another call on the session runs to its end while the tool runs between steps.
            await sdk.generateText({ model: wrapped, prompt: 'Other question?' });
            return { tempC: 18 };
          },
        });

        const loop = sdk.generateText({
          model: wrapped,
          prompt: 'Weather in Paris?',
          tools: { weather },
          stopWhen: sdk.stepCountIs(3),
          maxRetries: 0,
        });

        await expect(loop).rejects.toSatisfy(
          (e: unknown) =>
            MemError.isInstance(e) &&
            e.name === 'MemHistoryConflictError' &&
            /between two steps of this tool loop/.test(e.message),
        );
        expect(await stored(engine)).toEqual([
          'user: Weather in Paris?',
          'assistant:  -> weather#call-1 {"city":"Paris"}',
          'user: Other question?',
          'assistant: Other answer.',
        ]);
      });
    });
  }
}
