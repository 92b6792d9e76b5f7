import { createInMemoryStore, createMemoryEngine } from '@mem/core';
import {
  generateText,
  type LanguageModelMiddleware,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
  wrapLanguageModel,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { expect, it } from 'vitest';
import { describeMemoryMiddleware, type SdkUnderTest } from './__fixtures__/middleware-spec.ts';
import { textResult } from './__fixtures__/model-results.ts';
import { memoryMiddleware } from './index.ts';

describeMemoryMiddleware('ai 6 (LanguageModelV3)', {
  generateText,
  streamText,
  wrapLanguageModel,
  stepCountIs,
  tool,
  simulateReadableStream,
  MockLanguageModel: MockLanguageModelV3,
} as unknown as SdkUnderTest);

it("is an ai 6 LanguageModelMiddleware, as wrapLanguageModel's types see it", async () => {
  const engine = createMemoryEngine({ store: createInMemoryStore(), profile: {} });
  const middleware: LanguageModelMiddleware = memoryMiddleware({ engine, sessionId: 'typed' });
  const model = wrapLanguageModel({
    model: new MockLanguageModelV3({ doGenerate: textResult('Typed.') }),
    middleware,
  });

  const { text } = await generateText({ model, prompt: 'Hi' });

  expect(text).toBe('Typed.');
  expect(middleware.specificationVersion).toBe('v3');
});
