import { createOpenAI } from '@ai-sdk/openai';
import { createInMemoryStore, createMemoryEngine } from '@mem/core';
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ChatCompletionsServer,
  startChatCompletionsServer,
} from './__fixtures__/chat-completions-server.ts';
import { line } from './__fixtures__/middleware-spec.ts';
import { memoryMiddleware } from './index.ts';

describe('memoryMiddleware on @ai-sdk/openai, against a loopback Chat Completions server', () => {
  let server: ChatCompletionsServer;
  const start = async (
    replies: Parameters<typeof startChatCompletionsServer>[0],
    inputTokensThreshold = 100_000,
  ) => {
    server = await startChatCompletionsServer(replies);
    const openai = createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-loopback' });
    const engine = createMemoryEngine({
      store: createInMemoryStore(),
      profile: {
        long_term_memory_strategy: [
          {
            long_term_memory_id: 'neuralyzer',
            input_tokens_threshold: inputTokensThreshold,
            interaction_keep: 1,
          },
        ],
      },
    });
    const model = wrapLanguageModel({
      model: openai.chat('gpt-loopback'),
      middleware: memoryMiddleware({ engine, sessionId: 'user-42' }),
    });
    return { engine, model, session: engine.session('user-42') };
  };
  afterEach(async () => server?.close());

  it('sends the stored conversation on the wire and stores the answer', async () => {
    const { model, session } = await start(['Noted: order AF-1042.', 'Your order is AF-1042.']);

    await generateText({ model, system: 'You are support.', prompt: 'My order is AF-1042.' });
    const { text } = await generateText({
      model,
      system: 'You are support.',
      prompt: 'Which order?',
    });

    expect(text).toBe('Your order is AF-1042.');
    expect(server.requests[1]?.messages).toEqual([
      { role: 'system', content: 'You are support.' },
      { role: 'user', content: 'My order is AF-1042.' },
      { role: 'assistant', content: 'Noted: order AF-1042.' },
      { role: 'user', content: 'Which order?' },
    ]);
    expect((await session.messages()).map(line)).toEqual([
      'user: My order is AF-1042.',
      'assistant: Noted: order AF-1042.',
      'user: Which order?',
      'assistant: Your order is AF-1042.',
    ]);
  });

  it('streams a tool loop over SSE and stores each message once', async () => {
    const { model, session } = await start([
      { toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"order":"AF-1042"}' }] },
      'AF-1042 ships Monday.',
    ]);

    const result = streamText({
      model,
      prompt: 'When does AF-1042 ship?',
      tools: {
        lookup: tool({
          inputSchema: z.object({ order: z.string() }),
          execute: async ({ order }) => ({ order, ships: 'Monday' }),
        }),
      },
      stopWhen: stepCountIs(2),
    });

    expect(await result.text).toBe('AF-1042 ships Monday.');
    expect(server.requests.map((r) => r.stream)).toEqual([true, true]);
    expect(server.requests[1]?.messages).toEqual([
      { role: 'user', content: 'When does AF-1042 ship?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'lookup', arguments: '{"order":"AF-1042"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"order":"AF-1042","ships":"Monday"}' },
    ]);
    expect((await session.messages()).map(line)).toEqual([
      'user: When does AF-1042 ship?',
      'assistant:  -> lookup#call_1 {"order":"AF-1042"}',
      'tool#call_1: {"order":"AF-1042","ships":"Monday"}',
      'assistant: AF-1042 ships Monday.',
    ]);
  });

  it("hands the provider's prompt_tokens to mem, whose input_tokens_threshold then fires", async () => {
    // The server reports 1,234 prompt tokens per call; the threshold is 1,000.
    const { engine, model, session } = await start(['One.', 'Two.'], 1000);

    await generateText({ model, prompt: 'First?' });
    await generateText({ model, prompt: 'Second?' });
    await engine.idle();

    expect((await session.messages()).map(line)).toEqual(['user: Second?', 'assistant: Two.']);
  });
});
