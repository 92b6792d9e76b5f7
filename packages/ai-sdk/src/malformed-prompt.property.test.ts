import { createInMemoryStore, createMemoryEngine, MemError } from '@mem/core';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textResult } from './__fixtures__/model-results.ts';
import { memoryMiddleware } from './index.ts';
import { fingerprint } from './message-fingerprint.ts';
import { fromPrompt } from './prompt-messages.ts';

/* Anything where a prompt, a message or a part belongs: JSON-ish values, functions, null. */
const junk = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  fc.func(fc.anything({ maxDepth: 1 })),
  fc.constantFrom(null, undefined, '', 0, Number.NaN, [], {}),
);
const part = fc.oneof(
  junk,
  fc.record(
    {
      type: fc.oneof(
        fc.constantFrom('text', 'reasoning', 'file', 'image', 'tool-call', 'tool-result'),
        junk,
      ),
      text: fc.oneof(fc.string(), junk),
      data: fc.oneof(fc.string(), fc.uint8Array({ maxLength: 4 }), junk),
      mediaType: fc.oneof(fc.constantFrom('image/png', 'text/plain'), junk),
      toolCallId: fc.oneof(fc.string(), junk),
      toolName: fc.oneof(fc.string(), junk),
      input: junk,
      output: fc.oneof(fc.record({ type: fc.constantFrom('json', 'text'), value: junk }), junk),
    },
    { requiredKeys: [] },
  ),
);
const message = fc.oneof(
  junk,
  fc.record(
    {
      role: fc.oneof(fc.constantFrom('system', 'user', 'assistant', 'tool'), junk),
      content: fc.oneof(fc.string(), fc.array(part, { maxLength: 3 }), junk),
      providerOptions: junk,
    },
    { requiredKeys: ['role'] },
  ),
);
const prompt = fc.oneof(fc.array(message, { maxLength: 4 }), junk);
/* The call options themselves: a prompt beside junk options, or junk where the options go. */
const params = fc.oneof(
  fc.record({ prompt, abortSignal: junk, headers: junk }, { requiredKeys: ['prompt'] }),
  junk,
);

const raw = (e: unknown) =>
  e instanceof TypeError || e instanceof RangeError || e instanceof DOMException;

describe('memoryMiddleware on malformed call options', () => {
  it('throws only MemErrors and stores nothing of a call it refuses; stores exactly what it accepts', async () => {
    await fc.assert(
      fc.asyncProperty(params, async (value) => {
        const engine = createMemoryEngine({ store: createInMemoryStore(), profile: {} });
        const session = engine.session('chat-1');
        await session.append({ role: 'user', content: 'Earlier question.' });
        const model = wrapLanguageModel({
          model: new MockLanguageModelV3({ doGenerate: textResult('Fine.') }),
          middleware: memoryMiddleware({ engine, sessionId: 'chat-1' }),
        });

        let error: unknown;
        try {
          await model.doGenerate(value as never);
        } catch (e) {
          error = e;
        }

        const stored = (await session.messages()).slice(1);
        if (error !== undefined) {
          expect(raw(error), String(error)).toBe(false);
          expect(MemError.isInstance(error), String(error)).toBe(true);
          expect(stored).toEqual([]);
          return;
        }
        // Accepted: exactly its converted messages (system ones aside) and the answer.
        const sent = fromPrompt((value as { prompt: never }).prompt).filter(
          (m) => m.role !== 'system',
        );
        expect(stored.slice(0, -1).map(fingerprint)).toEqual(sent.map(fingerprint));
        expect(stored.at(-1)?.content).toEqual([{ type: 'text', text: 'Fine.' }]);
      }),
      { numRuns: 300 },
    );
  });
});
