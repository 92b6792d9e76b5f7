import { createInMemoryStore, createMemoryEngine } from '@mem/core';
import {
  generateText,
  type LanguageModelMiddleware,
  stepCountIs,
  streamText,
  tool,
  wrapLanguageModel,
} from 'ai-v7';
import { MockLanguageModelV4, simulateReadableStream } from 'ai-v7/test';
import { expect, it } from 'vitest';
import { describeMemoryMiddleware, type SdkUnderTest } from './__fixtures__/middleware-spec.ts';
import { textResult } from './__fixtures__/model-results.ts';
import { memoryMiddleware } from './index.ts';

describeMemoryMiddleware('ai 7 (LanguageModelV4)', {
  generateText,
  streamText,
  wrapLanguageModel,
  stepCountIs,
  tool,
  simulateReadableStream,
  MockLanguageModel: MockLanguageModelV4,
} as unknown as SdkUnderTest);

it("is an ai 7 LanguageModelMiddleware, as wrapLanguageModel's types see it", async () => {
  const engine = createMemoryEngine({ store: createInMemoryStore(), profile: {} });
  const middleware: LanguageModelMiddleware = memoryMiddleware({ engine, sessionId: 'typed' });
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doGenerate: textResult('Typed.') }),
    middleware,
  });

  const { text } = await generateText({ model, prompt: 'Hi' });

  expect(text).toBe('Typed.');
  expect(model.specificationVersion).toBe('v4');
});
