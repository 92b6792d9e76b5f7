import Anthropic from '@anthropic-ai/sdk';
import { type Message, toAnthropicMessages, toOpenAIMessages } from '@mem/core';
import OpenAI from 'openai';
import type { ChatConfig } from './chat-config.ts';

/** Sends the context the memory built and returns the model's text reply. */
export type ChatModel = (context: readonly Message[], signal?: AbortSignal) => Promise<string>;

const MAX_OUTPUT_TOKENS = 1024;

/**
 * The live chat's model call: mem messages are converted with core's converters and sent with the
 * provider's official SDK (OpenAI chat completions, which also serves Ollama and other
 * OpenAI-compatible endpoints, or Anthropic messages). No tools: the chat is plain text.
 */
export function createChatModel(config: Extract<ChatConfig, { enabled: true }>): ChatModel {
  if (config.provider === 'openai') {
    const client = new OpenAI({
      apiKey: config.apiKey,
      ...(config.baseURL === undefined ? {} : { baseURL: config.baseURL }),
      maxRetries: 1,
      timeout: 120_000,
    });
    return async (context, signal) => {
      const completion = await client.chat.completions.create(
        {
          model: config.model,
          messages: toOpenAIMessages(context) as OpenAI.ChatCompletionMessageParam[],
          max_tokens: MAX_OUTPUT_TOKENS,
        },
        signal === undefined ? {} : { signal },
      );
      return completion.choices[0]?.message?.content ?? '';
    };
  }
  const client = new Anthropic({
    apiKey: config.apiKey,
    ...(config.baseURL === undefined ? {} : { baseURL: config.baseURL }),
    maxRetries: 1,
    timeout: 120_000,
  });
  return async (context, signal) => {
    const prompt = toAnthropicMessages(context);
    const message = await client.messages.create(
      {
        model: config.model,
        max_tokens: MAX_OUTPUT_TOKENS,
        ...(prompt.system === undefined ? {} : { system: prompt.system }),
        messages: prompt.messages as Anthropic.MessageParam[],
      },
      signal === undefined ? {} : { signal },
    );
    return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  };
}
