import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContentPart, Message } from '../message.ts';
import { messageSchema } from '../message-schema.ts';
import { essentials, memConversation, sameIdsAs } from './__fixtures__/mem-arbitraries.ts';
import { openAIShape } from './__fixtures__/mem-shapes.ts';
import { openAIHistory } from './__fixtures__/openai-arbitraries.ts';
import { openAIConversation } from './__fixtures__/openai-conversation.ts';
import { sequentialIds } from './__fixtures__/test-helpers.ts';
import { fromOpenAIMessages, toOpenAIMessages } from './openai.ts';
import type { OpenAIChatMessage } from './openai-types.ts';

describe('fromOpenAIMessages / toOpenAIMessages', () => {
  it('round-trips a history using every message kind and part', () => {
    const mem = fromOpenAIMessages(openAIConversation, sequentialIds(42));
    expect(toOpenAIMessages(mem)).toStrictEqual(openAIConversation);
  });

  it('maps messages to typed mem fields', () => {
    const mem = fromOpenAIMessages(openAIConversation, sequentialIds(42));
    expect(mem[0]).toStrictEqual({
      id: 'id0',
      role: 'system',
      content: 'Answer in one sentence.',
      createdAt: 42,
      metadata: { 'mem.openai.role': 'developer' },
    });
    expect(mem[1]).toMatchObject({ role: 'system', name: 'ops' });
    expect(mem[1]?.metadata).toBeUndefined();
    expect(mem[3]?.content).toStrictEqual([
      { type: 'text', text: 'Here is the label, a voice note and the invoice.' },
      { type: 'image', image: 'https://cdn.example.com/label.png', detail: 'high' },
      { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
      { type: 'file', data: 'UklGRiQAAABXQVZF', mediaType: 'audio/wav' },
      { type: 'file', data: 'SUQzBAAAAAAA', mediaType: 'audio/mpeg' },
      { type: 'file', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf', filename: 'invoice.pdf' },
      {
        type: 'provider',
        format: 'openai',
        value: { type: 'file', file: { file_id: 'file-abc123' } },
      },
    ] satisfies ContentPart[]);
    expect(mem[4]).toMatchObject({
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'call_1', name: 'search_orders', arguments: '{"id": 1042}' },
        { id: 'call_2', name: 'run_sql', arguments: 'SELECT status FROM orders' },
      ],
      metadata: { 'mem.openai.customToolCalls': ['call_2'] },
    });
    expect(mem[4]?.metadata?.['mem.openai.message']).toBeUndefined();
    expect(mem[5]).toMatchObject({ role: 'tool', toolCallId: 'call_2', toolName: 'run_sql' });
    expect(mem[6]).toMatchObject({ role: 'tool', toolCallId: 'call_1', toolName: 'search_orders' });
    expect(mem[6]?.isError).toBeUndefined();
    expect(mem[7]).toMatchObject({
      name: 'bot',
      metadata: { 'mem.openai.message': { set: { audio: { id: 'audio_77' } } } },
    });
    expect(mem[9]).toMatchObject({
      content: 'I cannot share card numbers.',
      metadata: { 'mem.openai.refusal': true },
    });
    expect(mem[9]?.metadata?.['mem.openai.message']).toBeUndefined();
    expect(mem[12]?.metadata).toStrictEqual({ 'mem.openai.message': { omit: ['content'] } });
  });

  it('round-trips random histories with tool calls and results', () => {
    fc.assert(
      fc.property(openAIHistory, (history) => {
        const mem = fromOpenAIMessages(history);
        for (const message of mem) messageSchema.parse(message);
        expect(toOpenAIMessages(mem)).toStrictEqual(history);
        // As a store keeps them: plain JSON.
        expect(toOpenAIMessages(JSON.parse(JSON.stringify(mem)) as Message[])).toStrictEqual(
          history,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('keeps what mem messages carry through OpenAI and back', () => {
    fc.assert(
      fc.property(memConversation(openAIShape), (messages) => {
        const back = fromOpenAIMessages(toOpenAIMessages(messages), sameIdsAs(messages));
        expect(essentials(back, { names: true, isError: false })).toStrictEqual(
          essentials(messages, { names: true, isError: false }),
        );
        expect(back.map((m) => [m.id, m.createdAt])).toStrictEqual(
          messages.map((m) => [m.id, m.createdAt]),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('writes messages from other formats: null content next to calls, no reasoning, no isError', () => {
    const messages: Message[] = [
      { id: 'a', role: 'user', content: 'hi', createdAt: 1 },
      {
        id: 'b',
        role: 'assistant',
        createdAt: 2,
        content: [
          { type: 'reasoning', text: 'think', signature: 'sig' },
          { type: 'provider', format: 'anthropic', value: { type: 'server_tool_use' } },
        ],
        toolCalls: [{ id: 't1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
      },
      {
        id: 'c',
        role: 'tool',
        content: 'cold',
        toolCallId: 't1',
        toolName: 'get_weather',
        isError: true,
        createdAt: 3,
      },
      {
        id: 'd',
        role: 'assistant',
        content: [{ type: 'reasoning', text: 'only thoughts' }],
        createdAt: 4,
      },
      {
        id: 'e',
        role: 'user',
        content: [{ type: 'image', image: 'aGk=', mediaType: 'image/gif' }],
        createdAt: 5,
      },
    ];
    expect(toOpenAIMessages(messages)).toStrictEqual([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 't1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 't1', content: 'cold' },
      {
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: 'data:image/gif;base64,aGk=' } }],
      },
    ] satisfies OpenAIChatMessage[]);
  });

  it('uses crypto ids and the current time by default', () => {
    const before = Date.now();
    const [m] = fromOpenAIMessages([{ role: 'user', content: 'hi' }]);
    expect(m?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(m?.createdAt).toBeGreaterThanOrEqual(before);
  });
});
