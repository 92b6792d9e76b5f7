import type {
  ContentBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
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
import type { OpenAIChatMessage } from './openai-types.ts';

/*
 * Core defines its own structural wire types so it needs none of the SDKs. These checks (run by
 * `tsc`) keep them compatible with the official SDK types, in both directions where that is sound.
 * The AI SDK's two majors are checked in `ai-sdk-compat.test.ts`.
 */

describe('wire types match the official SDKs', () => {
  it('OpenAI: ChatCompletionMessageParam both ways', () => {
    expectTypeOf<ChatCompletionMessageParam>().toExtend<OpenAIChatMessage>();
    expectTypeOf<OpenAIChatMessage>().toExtend<ChatCompletionMessageParam>();
    const sdk: ChatCompletionMessageParam[] = toOpenAIMessages(
      fromOpenAIMessages(openAIConversation),
    );
    expect(sdk).toStrictEqual(openAIConversation);
  });

  it('Anthropic: SDK params are accepted, written messages are SDK params', () => {
    // Input is loose (any block with a type, checked at runtime) so every SDK block is accepted.
    expectTypeOf<MessageParam>().toExtend<AnthropicInputMessage>();
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
