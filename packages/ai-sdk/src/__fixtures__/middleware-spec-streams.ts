import { createMemoryEngine, type MemoryEngine } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { memoryMiddleware } from '../index.ts';
import { textStreamParts } from './model-results.ts';
import {
  lastUserText,
  line,
  type Prompt,
  type SdkUnderTest,
  storeKinds,
} from './sdk-under-test.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How a streamed answer ends decides whether it is stored (SPEC §12). */
export function describeStreamEndings(name: string, sdk: SdkUnderTest): void {
  for (const [storeName, createStore] of storeKinds()) {
    const setup = (streamFor: (question: string) => unknown[], chunkDelayInMs?: number) => {
      const engine = createMemoryEngine({ store: createStore(), profile: {} });
      const model = new sdk.MockLanguageModel({
        doStream: async ({ prompt }: { prompt: Prompt }) => ({
          stream: sdk.simulateReadableStream({
            chunks: streamFor(lastUserText(prompt)),
            chunkDelayInMs: chunkDelayInMs ?? null,
          }),
        }),
      });
      const wrapped = sdk.wrapLanguageModel({
        model: model as never,
        middleware: memoryMiddleware({ engine, sessionId: 'chat-1' }) as never,
      });
      return { engine, wrapped };
    };
    const stored = async (engine: MemoryEngine) =>
      (await engine.session('chat-1').messages()).map(line);

    describe(`how a stream ends with ${name}, on ${storeName}`, () => {
      it('a stream with an error part stores nothing of its answer, even when it finishes after it', async () => {
        const { engine, wrapped } = setup((q) => {
          if (q !== 'Hi') return textStreamParts(['Done.']);
          const parts = textStreamParts(['Hal', 'f an answer']);
          // The provider reports an error mid-answer, then still sends its finish part.
          return [...parts.slice(0, 3), { type: 'error', error: 'overloaded' }, ...parts.slice(3)];
        });
        const errors: unknown[] = [];

        await sdk
          .streamText({ model: wrapped, prompt: 'Hi', onError: () => {} })
          .consumeStream({ onError: (e) => errors.push(e) });
        expect(await stored(engine)).toEqual(['user: Hi']);

        expect(await sdk.streamText({ model: wrapped, prompt: 'Again' }).text).toBe('Done.');
        expect(await stored(engine)).toEqual(['user: Hi', 'user: Again', 'assistant: Done.']);
      });

      it('a stream aborted while it streams stores nothing of its answer', async () => {
        const deltas = Array.from({ length: 10 }, (_, i) => `part ${i} `);
        const { engine, wrapped } = setup(
          (q) => textStreamParts(q === 'Hi' ? deltas : ['Next answer.']),
          5,
        );
        const abort = new AbortController();
        const result = sdk.streamText({
          model: wrapped,
          prompt: 'Hi',
          abortSignal: abort.signal,
          onError: () => {},
        });

        const read: string[] = [];
        try {
          for await (const text of result.textStream as unknown as AsyncIterable<string>) {
            read.push(text);
            abort.abort();
          }
        } catch {
          // The AI SDK may end an aborted stream with an abort error.
        }
        expect(read.length).toBeGreaterThan(0);
        // Long enough for the model's stream to run to its end had it not been aborted.
        await sleep(150);
        expect(await stored(engine)).toEqual(['user: Hi']);

        expect(await sdk.streamText({ model: wrapped, prompt: 'Next' }).text).toBe('Next answer.');
        expect(await stored(engine)).toEqual(['user: Hi', 'user: Next', 'assistant: Next answer.']);
      });
    });
  }
}
