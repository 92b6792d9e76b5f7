import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { sequentialIds } from './__fixtures__/test-helpers.ts';
import { fromModelMessages, toModelMessages } from './ai-sdk.ts';

describe('AI SDK conversion in an agent loop', () => {
  it('accepts a tool result whose call was converted in an earlier step', () => {
    const call: ModelMessage[] = [
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
    ];
    const result: ModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'get_weather',
          output: { type: 'text', value: '-3°C' },
        },
      ],
    };
    const step1 = fromModelMessages(call);
    const step2 = fromModelMessages([result], sequentialIds());

    expect(step2).toStrictEqual([
      {
        id: 'id0',
        role: 'tool',
        content: '-3°C',
        toolCallId: 'c1',
        toolName: 'get_weather',
        createdAt: 42,
      },
    ]);
    expect(toModelMessages([...step1, ...step2]).at(-1)).toStrictEqual(result);
  });
});
