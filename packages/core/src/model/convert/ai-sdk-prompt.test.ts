import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { MemValidationError } from '../../errors/errors.ts';
import { memContext, memContextSystem } from './__fixtures__/ai-sdk-context.ts';
import { fromModelMessages, toModelMessages } from './ai-sdk.ts';
import { toModelPrompt } from './ai-sdk-prompt.ts';

const reply = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage: {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 2, text: 2, reasoning: undefined },
  },
  warnings: [],
});

describe('toModelPrompt', () => {
  it('joins every system message in order into system and keeps the rest as messages', () => {
    const prompt = toModelPrompt(memContext);
    expect(prompt.system).toBe(memContextSystem);
    expect(prompt.messages).toStrictEqual(toModelMessages(memContext.slice(3)));
    expect(prompt.messages.some((m) => m.role === 'system')).toBe(false);
  });

  it('names the option instructions for AI SDK v7 and leaves it out without system messages', () => {
    const prompt = toModelPrompt(memContext, { systemAs: 'instructions' });
    expect(prompt.instructions).toBe(memContextSystem);
    expect('system' in prompt).toBe(false);
    expect(toModelPrompt(memContext.slice(3))).toStrictEqual({
      messages: toModelMessages(memContext.slice(3)),
    });
  });

  it('refuses an unknown systemAs, naming the field', () => {
    const bad = { systemAs: 'developer' } as unknown as { systemAs: 'system' };
    expect(() => toModelPrompt(memContext, bad)).toThrow(MemValidationError);
    expect(() => toModelPrompt(memContext, bad)).toThrow(/systemAs is "developer"/);
  });

  it('AI SDK v6: generateText accepts it with system messages refused, the model gets the system', async () => {
    const model = new MockLanguageModelV3({ doGenerate: reply('Refunds take 5 days.') });
    const result = await generateText({
      model,
      ...toModelPrompt(memContext),
      allowSystemInMessages: false,
    });
    const prompt = model.doGenerateCalls[0]?.prompt ?? [];
    expect(prompt[0]).toStrictEqual({ role: 'system', content: memContextSystem });
    expect(prompt.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(prompt.map((m) => m.role)).toStrictEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
    ]);
    // The same context as plain messages is what v6 refuses (or warns about).
    await expect(
      generateText({ model, messages: toModelMessages(memContext), allowSystemInMessages: false }),
    ).rejects.toThrow(/System messages are not allowed/);
    // The answer goes back into mem.
    const [answer] = fromModelMessages(result.response.messages);
    expect(answer).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'Refunds take 5 days.' }],
    });
  });
});
