import { createMemoryEngine } from '@mem/core';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { textResult } from './__fixtures__/model-results.ts';
import { storeKinds } from './__fixtures__/sdk-under-test.ts';
import { memoryMiddleware } from './index.ts';

const greeting = 'Hi! Your booking code is BK-7781.';
const question = 'What was my booking code?';
const profiles: Array<[string, object]> = [
  ['no strategy', {}],
  [
    'max_tokens 8000',
    { short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 8000 }] },
  ],
];

/** The prompt as `role: text` lines (text parts joined). */
function lines(prompt: ReadonlyArray<{ role: string; content: unknown }>): string[] {
  return prompt.map((m) => {
    const parts = Array.isArray(m.content) ? (m.content as Array<{ text?: unknown }>) : [];
    const text = typeof m.content === 'string' ? m.content : parts.map((p) => p.text).join('');
    return `${m.role}: ${text}`;
  });
}

for (const [storeName, createStore] of storeKinds()) {
  describe(`a conversation that starts with an assistant greeting, on ${storeName}`, () => {
    const setup = (profile: object) => {
      const engine = createMemoryEngine({ store: createStore(), profile });
      const model = new MockLanguageModelV3({ doGenerate: textResult('BK-7781.') });
      const wrapped = wrapLanguageModel({
        model,
        middleware: memoryMiddleware({ engine, sessionId: 'greet' }),
      });
      return { engine, model, wrapped };
    };

    it.each(profiles)(
      'the model receives the greeting the app sends before the question (%s)',
      async (_, profile) => {
        const { engine, model, wrapped } = setup(profile);
        await generateText({
          model: wrapped,
          messages: [
            { role: 'assistant', content: greeting },
            { role: 'user', content: question },
          ],
        });
        expect(lines(model.doGenerateCalls[0]!.prompt)).toEqual([
          `assistant: ${greeting}`,
          `user: ${question}`,
        ]);
        const stored = await engine.session('greet').messages();
        expect(stored.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
      },
    );

    it.each(profiles)(
      'the model receives a greeting stored through mem when the app sends only the question (%s)',
      async (_, profile) => {
        const { engine, model, wrapped } = setup(profile);
        await engine.session('greet').append({ role: 'assistant', content: greeting });
        await generateText({ model: wrapped, prompt: question });
        expect(lines(model.doGenerateCalls[0]!.prompt)).toEqual([
          `assistant: ${greeting}`,
          `user: ${question}`,
        ]);
      },
    );
  });
}
