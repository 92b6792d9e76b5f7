import type {
  Message as AnthropicResponse,
  ContentBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  ChatCompletionMessage,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type {
  ChatCompletionMessageParam as ChatCompletionMessageParamV7,
  ChatCompletionMessage as ChatCompletionMessageV7,
} from 'openai-v7/resources/chat/completions';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Message } from '../message.ts';
import { anthropicConversation } from './__fixtures__/anthropic-conversation.ts';
import { openAIConversation } from './__fixtures__/openai-conversation.ts';
import { fromAnthropicMessages, toAnthropicMessages } from './anthropic.ts';
import type {
  AnthropicContentBlock,
  AnthropicInput,
  AnthropicInputMessage,
  AnthropicMessageParam,
  AnthropicPrompt,
  AnthropicTextBlock,
} from './anthropic-types.ts';
import { fromOpenAIMessages, toOpenAIMessages } from './openai.ts';
import type { OpenAIChatMessage, OpenAIChatMessageInput } from './openai-types.ts';

/*
 * Core defines its own structural wire types so it needs none of the SDKs. These checks (run by
 * `tsc`) keep them compatible with the official SDK types, in both directions where that is sound.
 * The AI SDK's two majors are checked in `ai-sdk-compat.test.ts`.
 */

describe('wire types match the official SDKs', () => {
  it('OpenAI 6: ChatCompletionMessageParam both ways, ChatCompletionMessage is read', () => {
    expectTypeOf<ChatCompletionMessageParam>().toExtend<OpenAIChatMessage>();
    expectTypeOf<ChatCompletionMessageParam>().toExtend<OpenAIChatMessageInput>();
    expectTypeOf<ChatCompletionMessage>().toExtend<OpenAIChatMessageInput>();
    expectTypeOf<OpenAIChatMessage>().toExtend<ChatCompletionMessageParam>();
    const sdk: ChatCompletionMessageParam[] = toOpenAIMessages(
      fromOpenAIMessages(openAIConversation),
    );
    expect(sdk).toStrictEqual(openAIConversation);
  });

  it('OpenAI 7: its params (image detail "original" included) and responses are read, written messages are its params', () => {
    expectTypeOf<ChatCompletionMessageParamV7>().toExtend<OpenAIChatMessageInput>();
    expectTypeOf<ChatCompletionMessageV7>().toExtend<OpenAIChatMessageInput>();
    expectTypeOf<OpenAIChatMessage>().toExtend<ChatCompletionMessageParamV7>();
    const request: ChatCompletionMessageParamV7[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is on this chart?' },
          { type: 'image_url', image_url: { url: 'https://x.test/c.png', detail: 'original' } },
        ],
      },
      { role: 'assistant', content: 'Sales by month.' },
    ];
    const sdk: ChatCompletionMessageParamV7[] = toOpenAIMessages(fromOpenAIMessages(request));
    expect(sdk).toStrictEqual(request);
  });

  it('Anthropic: SDK params are accepted, written messages are SDK params', () => {
    // Input is loose (any block with a type, checked at runtime) so every SDK block is accepted.
    expectTypeOf<MessageParam>().toExtend<AnthropicInputMessage>();
    // A response pushed onto the conversation (`{ role, content } = await messages.create(...)`).
    expectTypeOf<Pick<AnthropicResponse, 'role' | 'content'>>().toExtend<AnthropicInputMessage>();
    expectTypeOf<
      Pick<MessageCreateParamsNonStreaming, 'system' | 'messages'>
    >().toExtend<AnthropicInput>();
    // Output is typed as the blocks mem writes; blocks read verbatim come back as they were.
    expectTypeOf<AnthropicContentBlock>().toExtend<ContentBlockParam>();
    expectTypeOf<AnthropicTextBlock>().toExtend<TextBlockParam>();
    expectTypeOf<AnthropicMessageParam>().toExtend<MessageParam>();
    expectTypeOf<AnthropicPrompt>().toExtend<
      Pick<MessageCreateParamsNonStreaming, 'system' | 'messages'>
    >();
    expectTypeOf<AnthropicPrompt>().toExtend<AnthropicInput>();
    const mem: Message[] = fromAnthropicMessages(anthropicConversation);
    const { system, messages } = toAnthropicMessages(mem);
    const request: Pick<MessageCreateParamsNonStreaming, 'system' | 'messages'> = { messages };
    if (system !== undefined) request.system = system;
    expect(request).toStrictEqual(anthropicConversation);
  });
});
