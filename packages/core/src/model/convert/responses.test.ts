import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../message.ts';
import { messageSchema } from '../message-schema.ts';
import { essentials, memConversation, sameIdsAs } from './__fixtures__/mem-arbitraries.ts';
import { responsesHistory, responsesShape } from './__fixtures__/responses-arbitraries.ts';
import { responsesConversation } from './__fixtures__/responses-conversation.ts';
import { expectConversionError, sequentialIds } from './__fixtures__/test-helpers.ts';
import { fromResponsesItems, toResponsesInput } from './responses.ts';
import type { ResponsesItemLike } from './responses-types.ts';

describe('fromResponsesItems / toResponsesInput', () => {
  it('round-trips a history using every item kind and part', () => {
    const mem = fromResponsesItems(responsesConversation, sequentialIds());
    for (const message of mem) messageSchema.parse(message);
    expect(toResponsesInput(mem)).toStrictEqual(responsesConversation);
    // As a store keeps them: plain JSON.
    expect(toResponsesInput(JSON.parse(JSON.stringify(mem)) as Message[])).toStrictEqual(
      responsesConversation,
    );
  });

  it('round-trips random histories with reasoning, hosted tools, calls and outputs', () => {
    fc.assert(
      fc.property(responsesHistory, (history) => {
        const mem = fromResponsesItems(history);
        for (const message of mem) messageSchema.parse(message);
        expect(toResponsesInput(mem)).toStrictEqual(history);
        expect(toResponsesInput(JSON.parse(JSON.stringify(mem)) as Message[])).toStrictEqual(
          history,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('keeps what mem messages carry through the Responses API and back', () => {
    fc.assert(
      fc.property(memConversation(responsesShape), (messages) => {
        const back = fromResponsesItems(toResponsesInput(messages), sameIdsAs(messages));
        expect(essentials(back, { names: false, isError: false })).toStrictEqual(
          essentials(messages, { names: false, isError: false }),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('maps items to typed mem messages', () => {
    const mem = fromResponsesItems(responsesConversation, sequentialIds());
    expect(mem.map((m) => m.role)).toEqual([
      'system',
      'system',
      'user',
      'user',
      'assistant', // reasoning + two function calls
      'tool',
      'tool',
      'assistant', // the output message
      'user',
      'assistant', // web search call + answer
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(mem[0]).toStrictEqual({
      id: 'id0',
      role: 'system',
      content: 'Answer in one sentence.',
      createdAt: 42,
      metadata: { 'mem.responses.role': 'developer' },
    });
    expect(mem[3]?.content).toStrictEqual([
      { type: 'text', text: 'Here is the label and the invoice.' },
      { type: 'image', image: 'https://cdn.example.com/label.png', detail: 'high' },
      { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png', detail: 'auto' },
      { type: 'file', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf', filename: 'invoice.pdf' },
      {
        type: 'provider',
        format: 'openai-responses',
        value: { type: 'input_file', file_id: 'file-abc123' },
      },
    ]);
    expect(mem[4]).toMatchObject({
      content: [
        { type: 'provider', format: 'openai-responses', value: { type: 'reasoning', id: 'rs_1' } },
      ],
      toolCalls: [
        { id: 'call_1', name: 'search_orders', arguments: '{"id": 1042}' },
        { id: 'call_2', name: 'get_weather', arguments: '{"city":"Oslo"' },
      ],
    });
    expect(mem[5]).toMatchObject({ role: 'tool', toolCallId: 'call_2', toolName: 'get_weather' });
    expect(mem[6]).toMatchObject({
      toolCallId: 'call_1',
      toolName: 'search_orders',
      content: [{ type: 'text', text: '{"status":"shipped","carrier":"DHL"}' }],
      metadata: { 'mem.responses.item': { set: { id: 'fco_1', status: 'completed' } } },
    });
    expect(mem[7]?.content).toMatchObject([
      { type: 'text', text: 'Order 1042 shipped with DHL.' },
      { type: 'provider', value: { type: 'refusal' } },
    ]);
    expect(mem[13]).toStrictEqual({
      id: 'id13',
      role: 'assistant',
      content: '12°C in Bonn.',
      createdAt: 42,
    });
    expect(mem[11]).toStrictEqual({
      id: 'id11',
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_3', name: 'get_weather', arguments: '{"city":"Bonn"}' }],
      createdAt: 42,
    });
  });

  it('accepts a function_call_output whose call was converted in an earlier step', () => {
    const [step1] = [fromResponsesItems(responsesConversation.slice(0, 7))];
    const step2 = fromResponsesItems(
      [{ type: 'function_call_output', call_id: 'call_2', output: 'cold' }],
      sequentialIds(),
    );
    expect(step2).toStrictEqual([
      { id: 'id0', role: 'tool', content: 'cold', toolCallId: 'call_2', createdAt: 42 },
    ]);
    expect(toResponsesInput([...step1, ...step2]).at(-1)).toStrictEqual({
      type: 'function_call_output',
      call_id: 'call_2',
      output: 'cold',
    });
  });

  it('writes messages from other formats as message, function_call and output items', () => {
    const messages: Message[] = [
      { id: 's', role: 'system', content: 'Be brief.', createdAt: 0 },
      {
        id: 'u',
        role: 'user',
        content: [{ type: 'image', image: 'aGk=', mediaType: 'image/gif' }],
        createdAt: 1,
      },
      {
        id: 'a',
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'think', signature: 'sig' },
          { type: 'text', text: 'Checking.' },
          { type: 'provider', format: 'anthropic', value: { type: 'server_tool_use' } },
        ],
        toolCalls: [{ id: 't1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
        createdAt: 2,
      },
      {
        id: 't',
        role: 'tool',
        content: 'cold',
        toolCallId: 't1',
        toolName: 'get_weather',
        isError: true,
        createdAt: 3,
      },
      {
        id: 'r',
        role: 'assistant',
        content: [{ type: 'reasoning', text: 'only thoughts' }],
        createdAt: 4,
      },
      { id: 'b', role: 'assistant', content: 'Cold.', createdAt: 5 },
    ];
    expect(toResponsesInput(messages)).toStrictEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [{ type: 'input_image', image_url: 'data:image/gif;base64,aGk=', detail: 'auto' }],
      },
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 't1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 't1', output: 'cold' },
      { role: 'assistant', content: 'Cold.' },
    ]);
  });

  it('rejects invalid items with the path and what to do', () => {
    const cases: [unknown, string][] = [
      [{}, 'items is not an array'],
      [['x'], 'items[0] is not an object'],
      [[{ content: 'x' }], 'items[0] has neither a type nor a role'],
      [[{ role: 'robot', content: 'x' }], 'items[0].role is "robot"'],
      [[{ role: 'user', content: 7 }], 'items[0].content is neither a string nor an array'],
      [[{ role: 'user', content: [{ text: 'x' }] }], 'items[0].content[0] is not a content part'],
      [[{ type: 'function_call', name: 'f', arguments: '{}' }], 'items[0].call_id'],
      [[{ type: 'function_call', call_id: 'c', name: 'f' }], 'items[0] needs a string name'],
      [[{ type: 'function_call_output', output: 'x' }], 'items[0].call_id'],
    ];
    for (const [input, where] of cases) {
      expectConversionError(() => fromResponsesItems(input as ResponsesItemLike[]), where);
    }
    expectConversionError(
      () => toResponsesInput([{ id: 'x', role: 'tool', content: 'x', createdAt: 0 }]),
      'messages[0].toolCallId is missing',
    );
  });
});
