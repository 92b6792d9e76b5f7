import { describe, it } from 'vitest';
import type { Message } from '../message.ts';
import { expectConversionError } from './__fixtures__/test-helpers.ts';
import { fromOpenAIMessages, toOpenAIMessages } from './openai.ts';
import type { OpenAIChatMessage } from './openai-types.ts';

describe('fromOpenAIMessages / toOpenAIMessages errors', () => {
  it('rejects invalid input with the field path and what to do', () => {
    const cases: [unknown, string][] = [
      [[{ role: 'robot', content: 'x' }], 'messages[0].role is "robot"'],
      [[{ role: 'function', name: 'f', content: null }], 'messages[0].role is "function"'],
      [[{ role: 'tool', content: 'x' }], 'messages[0].tool_call_id is missing'],
      [[{ role: 'assistant', tool_calls: {} }], 'messages[0].tool_calls is not an array'],
      [
        [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function' }] }],
        'messages[0].tool_calls[0].function',
      ],
      [[{ role: 'user', content: 7 }], 'messages[0].content is neither a string nor an array'],
      [
        [{ role: 'user', content: [{ text: 'x' }] }],
        'messages[0].content[0] is not a content part',
      ],
      [['hello'], 'messages[0] is not an object'],
      [{}, 'messages is not an array'],
    ];
    for (const [input, where] of cases) {
      expectConversionError(() => fromOpenAIMessages(input as OpenAIChatMessage[]), where);
    }
  });

  it('rejects mem messages OpenAI cannot carry', () => {
    const base = { id: 'x', createdAt: 0 };
    const cases: [Message, string][] = [
      [{ ...base, role: 'tool', content: 'x' }, 'messages[0].toolCallId is missing'],
      [
        { ...base, role: 'assistant', content: [{ type: 'image', image: 'https://x.test/a.png' }] },
        'messages[0].content[0] is an image part in a assistant message',
      ],
      [
        { ...base, role: 'user', content: [{ type: 'image', image: 'aGk=' }] },
        'messages[0].content[0].mediaType',
      ],
      [
        {
          ...base,
          role: 'user',
          content: [{ type: 'file', data: 'https://x.test/a.pdf', mediaType: 'application/pdf' }],
        },
        'messages[0].content[0].data is a URL',
      ],
    ];
    for (const [message, where] of cases) {
      expectConversionError(() => toOpenAIMessages([message]), where);
    }
  });
});
