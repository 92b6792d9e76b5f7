import type { StoredMessage } from '@mem/core';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { aiSdkChatModel } from '../ai-sdk-chat-model.ts';
import { createLlmFactExtractor } from './llm-fact-extractor.ts';

/** The AI SDK's own mock model (`ai/test`) behind `aiSdkChatModel`: no HTTP, the real `generateText`. */

const result = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage: {
    inputTokens: { total: 120, noCache: 120, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 30, text: 30, reasoning: undefined },
  },
  warnings: [],
});

const messages: StoredMessage[] = [
  {
    id: 'u1',
    role: 'user',
    content: 'Please remember that my daughter Lea starts school in September.',
    createdAt: 1,
    seq: 1,
    tokenCount: 12,
  },
  {
    id: 'a1',
    role: 'assistant',
    content: 'I will remember that.',
    createdAt: 2,
    seq: 2,
    tokenCount: 5,
  },
];
const input = {
  userId: 'ben',
  sessionId: 's-1',
  messages,
  facts: [
    {
      id: 'k1',
      text: 'Has one daughter.',
      about: 'family',
      sourceMessageIds: [],
      createdAt: 0,
      updatedAt: 0,
    },
  ],
  now: Date.UTC(2026, 5, 1),
};

/** The text of every message `generateText` handed the mock model. */
function promptText(model: MockLanguageModelV3, call = 0): string {
  return JSON.stringify(model.doGenerateCalls[call]?.prompt);
}

describe('createLlmFactExtractor on an AI SDK mock model', () => {
  it('parses the reply into operations and reports the usage generateText returned', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: result(
        JSON.stringify({
          operations: [
            {
              op: 'update',
              id: 'k1',
              text: 'Has a daughter, Lea, who starts school in September 2026.',
              about: 'family',
              source: [1],
            },
          ],
        }),
      ),
    });
    const usage: unknown[] = [];
    const extractor = createLlmFactExtractor({
      model: aiSdkChatModel(model),
      onUsage: (u) => usage.push(u),
    });
    await expect(extractor.extract(input, { signal: AbortSignal.timeout(5_000) })).resolves.toEqual(
      [
        {
          op: 'update',
          id: 'k1',
          text: 'Has a daughter, Lea, who starts school in September 2026.',
          about: 'family',
          sourceMessageIds: ['u1'],
        },
      ],
    );
    expect(usage).toEqual([
      { inputTokens: 120, outputTokens: 30, model: 'ai-sdk:mock-provider:mock-model-id' },
    ]);
    expect(model.doGenerateCalls).toHaveLength(1);
    const prompt = promptText(model);
    expect(prompt).toContain(
      '{\\"id\\":\\"k1\\",\\"about\\":\\"family\\",\\"text\\":\\"Has one daughter.\\"}',
    );
    expect(prompt).toContain(
      '[1] user: Please remember that my daughter Lea starts school in September.',
    );
    expect(prompt).toContain('[2] assistant: I will remember that.');
    expect(prompt).toContain('Reply with exactly one JSON object');
  });

  it('gives up after the retry with a MemSummarizerError when both replies are malformed', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [result('Sure! Lea starts school.'), result('{"ops": []}')],
    });
    const extractor = createLlmFactExtractor({ model: aiSdkChatModel(model) });
    await expect(
      extractor.extract(input, { signal: AbortSignal.timeout(5_000) }),
    ).rejects.toMatchObject({
      code: 'MEM_SUMMARIZER',
      message: expect.stringMatching(/malformed after 2 attempts \(schema mismatch/),
    });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(promptText(model, 1)).toContain('Your previous reply could not be used: no JSON object');
  });

  it('hands the abort signal to the model, and rejects as aborted when it fires', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: ({ abortSignal }) =>
        new Promise((_, reject) => {
          abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true });
        }),
    });
    const controller = new AbortController();
    const extractor = createLlmFactExtractor({ model: aiSdkChatModel(model) });
    const pending = extractor.extract(input, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('deadline')), 20);
    await expect(pending).rejects.toMatchObject({ code: 'MEM_SUMMARIZER', kind: 'aborted' });
    expect(model.doGenerateCalls).toHaveLength(1);
  });
});
