import { generateText, isStepCount, tool } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Message } from '../message.ts';
import { memContext, memContextSystem } from './__fixtures__/ai-sdk-context.ts';
import { fromModelMessages, toModelMessages } from './ai-sdk.ts';
import { toModelPrompt } from './ai-sdk-prompt.ts';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};
const reply = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage,
  warnings: [],
});
const call = (toolCallId: string, input: object) => ({
  content: [
    { type: 'tool-call' as const, toolCallId, toolName: 'refund', input: JSON.stringify(input) },
  ],
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
  usage,
  warnings: [],
});

describe('toModelPrompt with AI SDK v7', () => {
  it('reproduces the issue: v7 refuses the context as plain messages', async () => {
    const model = new MockLanguageModelV4({ doGenerate: reply('x') });
    await expect(generateText({ model, messages: toModelMessages(memContext) })).rejects.toThrow(
      /System messages are not allowed/,
    );
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('generateText takes it as instructions; the provider receives the system content', async () => {
    const model = new MockLanguageModelV4({ doGenerate: reply('Refunds take 5 days.') });
    const result = await generateText({
      model,
      ...toModelPrompt(memContext, { systemAs: 'instructions' }),
    });
    expect(result.text).toBe('Refunds take 5 days.');
    const prompt = model.doGenerateCalls[0]?.prompt ?? [];
    expect(prompt[0]).toStrictEqual({ role: 'system', content: memContextSystem });
    expect(prompt.map((m) => m.role)).toStrictEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
    ]);
    // `system` (v7's deprecated name) works the same.
    const legacy = new MockLanguageModelV4({ doGenerate: reply('ok') });
    await generateText({ model: legacy, ...toModelPrompt(memContext) });
    expect(legacy.doGenerateCalls[0]?.prompt[0]).toStrictEqual(prompt[0]);
  });

  it('appends result.responseMessages of a tool loop, and they go back in the next call', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [call('r1', { order: 1042 }), reply('Refund started.')],
    });
    const refund = tool({
      inputSchema: z.object({ order: z.number() }),
      execute: async ({ order }) => ({ order, status: 'started' }),
    });
    const first = await generateText({
      model,
      tools: { refund },
      stopWhen: isStepCount(2),
      ...toModelPrompt(memContext, { systemAs: 'instructions' }),
    });
    const appended: Message[] = fromModelMessages(first.responseMessages);
    expect(appended.map((m) => m.role)).toStrictEqual(['assistant', 'tool', 'assistant']);
    expect(appended[0]?.toolCalls).toStrictEqual([
      { id: 'r1', name: 'refund', arguments: '{"order":1042}' },
    ]);
    expect(appended[1]).toMatchObject({ role: 'tool', toolCallId: 'r1', toolName: 'refund' });
    // The SDK's parts carry keys set to undefined (`providerOptions: undefined`); mem drops them.
    expect(toModelMessages(appended)).toEqual(first.responseMessages);

    const next = new MockLanguageModelV4({ doGenerate: reply('Anything else?') });
    await generateText({
      model: next,
      ...toModelPrompt([...memContext, ...appended], { systemAs: 'instructions' }),
    });
    const roles = next.doGenerateCalls[0]?.prompt.map((m) => m.role);
    expect(roles).toStrictEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  });
});
