import { describe, it } from 'vitest';
import type { Message } from '../message.ts';
import { expectConversionError } from './__fixtures__/test-helpers.ts';
import { fromModelMessages, toModelMessages } from './ai-sdk.ts';
import type { ModelMessageLike } from './ai-sdk-types.ts';

describe('fromModelMessages / toModelMessages errors', () => {
  it('rejects invalid input with the field path and what to do', () => {
    const call = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: {} }],
    };
    const result = (output: unknown) => ({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'f', output }],
    });
    const cases: [unknown, string][] = [
      [[{ role: 'robot', content: 'x' }], 'messages[0].role is "robot"'],
      [[{ role: 'system', content: [] }], 'messages[0].content is not a string'],
      [
        [{ role: 'tool', content: [{ type: 'tool-result', toolName: 'f', output: {} }] }],
        'messages[0].content[0].toolCallId is undefined, not a tool call id',
      ],
      [
        [call, result({ type: 'text', value: 1 })],
        'messages[1].content[0].output.value is not a string',
      ],
      [[call, result({ type: 'json' })], 'messages[1].content[0].output.value is not JSON'],
      [[call, result('done')], 'messages[1].content[0].output is not an object'],
      [[{ role: 'tool', content: 'x' }], 'messages[0].content is not an array'],
      [
        [
          {
            role: 'assistant',
            content: [
              { type: 'tool-call', toolCallId: 'c', toolName: 'f', input: { n: Number.NaN } },
            ],
          },
        ],
        'messages[0].content[0].input is not plain JSON',
      ],
      [[{ role: 'user', content: [{}] }], 'messages[0].content[0] is not a part with a type'],
      [null, 'messages is not an array'],
    ];
    for (const [input, where] of cases) {
      expectConversionError(() => fromModelMessages(input as ModelMessageLike[]), where);
    }
  });

  it('rejects mem tool messages the AI SDK cannot carry', () => {
    const base = { id: 'x', createdAt: 0, role: 'tool' as const };
    const cases: [Message, string][] = [
      [{ ...base, content: 'x', toolName: 'f' }, 'messages[0].toolCallId is missing'],
      [{ ...base, content: 'x', toolCallId: 'c' }, 'messages[0].toolName is missing'],
      [
        { ...base, content: [{ type: 'image', image: 'aGk=' }], toolCallId: 'c', toolName: 'f' },
        'messages[0].content[0].mediaType is missing',
      ],
    ];
    for (const [message, where] of cases) {
      expectConversionError(() => toModelMessages([message]), where);
    }
  });
});
