import { describe, it } from 'vitest';
import type { Message } from '../message.ts';
import { expectConversionError } from './__fixtures__/test-helpers.ts';
import { fromAnthropicMessages, toAnthropicMessages } from './anthropic.ts';
import type { AnthropicInput } from './anthropic-types.ts';

describe('fromAnthropicMessages / toAnthropicMessages errors', () => {
  it('rejects invalid input with the field path and what to do', () => {
    const use = (input: unknown) => ({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input }],
    });
    const cases: [unknown, string][] = [
      [{ messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role is "robot"'],
      [{ messages: [use([1, 2])] }, 'messages[0].content[0].input is an array, not an object'],
      [{ messages: [use('{"a":1}')] }, 'messages[0].content[0].input is a string, not an object'],
      [{ messages: [use(null)] }, 'messages[0].content[0].input is null, not an object'],
      [
        { messages: [use({ when: new Date(0) })] },
        'messages[0].content[0].input is not plain JSON',
      ],
      [
        { messages: [{ role: 'user', content: [{ text: 'x' }] }] },
        'messages[0].content[0] is not a content block',
      ],
      [
        { messages: [{ role: 'user', content: 3 }] },
        'messages[0].content is neither a string nor an array',
      ],
      [{ system: 5, messages: [] }, 'system is neither a string nor an array'],
      [{}, 'messages is not an array'],
    ];
    for (const [input, where] of cases) {
      expectConversionError(() => fromAnthropicMessages(input as AnthropicInput), where);
    }
  });

  it('rejects mem messages Anthropic cannot carry', () => {
    const base = { id: 'x', createdAt: 0 };
    const call = (args: string): Message => ({
      ...base,
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c', name: 'f', arguments: args }],
    });
    const cases: [Message[], string][] = [
      [[call('{"a":')], 'messages[0].toolCalls[0].arguments is not valid JSON'],
      [[call('[1]')], 'messages[0].toolCalls[0].arguments is JSON but not an object'],
      [[{ ...base, role: 'tool', content: 'x' }], 'messages[0].toolCallId is missing'],
      [
        [{ ...base, role: 'system', content: [{ type: 'image', image: 'https://x.test/a.png' }] }],
        'messages[0].content[0] is an image part; Anthropic system prompts take text only',
      ],
      [
        [
          {
            ...base,
            role: 'user',
            content: [{ type: 'file', data: 'AAAA', mediaType: 'audio/wav' }],
          },
        ],
        'messages[0].content[0].mediaType is "audio/wav"',
      ],
    ];
    for (const [messages, where] of cases) {
      expectConversionError(() => toAnthropicMessages(messages), where);
    }
  });
});
