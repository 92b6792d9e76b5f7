import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContentPart, Message } from '../message.ts';
import { messageSchema } from '../message-schema.ts';
import { anthropicRequest } from './__fixtures__/anthropic-arbitraries.ts';
import { anthropicConversation } from './__fixtures__/anthropic-conversation.ts';
import { essentials, memConversation, sameIdsAs } from './__fixtures__/mem-arbitraries.ts';
import { anthropicShape } from './__fixtures__/mem-shapes.ts';
import { sequentialIds } from './__fixtures__/test-helpers.ts';
import { fromAnthropicMessages, toAnthropicMessages } from './anthropic.ts';
import type { AnthropicInput } from './anthropic-types.ts';
import { textToBase64 } from './data-encoding.ts';

describe('fromAnthropicMessages / toAnthropicMessages', () => {
  it('round-trips a request using every block kind', () => {
    const mem = fromAnthropicMessages(anthropicConversation, sequentialIds(7));
    expect(toAnthropicMessages(mem)).toStrictEqual(anthropicConversation);
  });

  it('maps blocks to typed mem parts and keeps extras in metadata', () => {
    const mem = fromAnthropicMessages(anthropicConversation, sequentialIds(7));
    expect(mem.map((m) => m.role)).toStrictEqual([
      'system',
      'user',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(mem[0]).toMatchObject({
      content: [
        { type: 'text', text: 'You are a support agent for an online shop.' },
        { type: 'text', text: 'Orders live in postgres.' },
      ],
      metadata: { 'mem.anthropic.parts': { 0: { cache_control: { type: 'ephemeral' } } } },
    });
    const user = mem[2]!;
    expect(user.content).toMatchObject([
      { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
      { type: 'image', image: 'https://cdn.example.com/label.jpg' },
      {
        type: 'provider',
        format: 'anthropic',
        value: { type: 'image', source: { type: 'file', file_id: 'file_011' } },
      },
      { type: 'file', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf', filename: 'invoice.pdf' },
      { type: 'file', data: textToBase64('Shipped via DHL — Zürich ✓'), mediaType: 'text/plain' },
      { type: 'file', data: 'https://example.com/terms.pdf', mediaType: 'application/pdf' },
      { type: 'provider', format: 'anthropic' },
      { type: 'provider', format: 'anthropic' },
      { type: 'text', text: 'Please check.' },
    ] satisfies Partial<ContentPart>[]);
    expect(user.metadata?.['mem.anthropic.parts']).toStrictEqual({
      3: { context: 'Invoice for order 1042', citations: { enabled: true } },
      5: { title: null },
      8: { cache_control: { type: 'ephemeral', ttl: '1h' } },
    });
    expect(mem[3]).toMatchObject({
      content: [
        {
          type: 'reasoning',
          text: 'Look the order up, then the weather.',
          signature: 'EqQBCgIYAhIM',
        },
        { type: 'reasoning', text: '', redacted: 'EmwKAhgBEgy3va3pzix' },
        { type: 'text', text: 'Let me check the order.' },
        { type: 'text', text: 'And the weather at the depot.' },
      ],
      toolCalls: [
        {
          id: 'toolu_01',
          name: 'search_orders',
          arguments: '{"id":1042,"fields":["status","carrier"]}',
        },
        { id: 'toolu_02', name: 'get_weather', arguments: '{"city":"Berlin"}' },
      ],
      metadata: {
        'mem.anthropic.toolCalls': { 0: { cache_control: { type: 'ephemeral' } } },
        'mem.anthropic.toolUseAt': [3, 5],
      },
    });
    expect(mem[4]).toMatchObject({
      role: 'tool',
      toolCallId: 'toolu_01',
      toolName: 'search_orders',
    });
    expect(mem[4]?.metadata).toBeUndefined();
    expect(mem[5]).toMatchObject({
      toolName: 'get_weather',
      isError: false,
      metadata: { 'mem.anthropic.block': { set: { cache_control: { type: 'ephemeral' } } } },
    });
    expect(mem[6]).toMatchObject({ role: 'user', metadata: { 'mem.anthropic.continues': true } });
    expect(mem[8]).toMatchObject({
      content: 'SMTP timeout',
      isError: true,
      toolName: 'send_email',
    });
    expect(mem[10]?.metadata).toStrictEqual({ 'mem.anthropic.block': { omit: ['content'] } });
    expect(mem[11]?.metadata).toStrictEqual({ 'mem.anthropic.continues': false });
  });

  it('keeps a text document that is not valid UTF-16 verbatim', () => {
    const block = {
      type: 'document' as const,
      source: {
        type: 'text' as const,
        media_type: 'text/plain' as const,
        data: 'broken \uD800 surrogate',
      },
    };
    const request = { messages: [{ role: 'user' as const, content: [block] }] };
    const mem = fromAnthropicMessages(request);
    expect(mem[0]?.content).toStrictEqual([
      { type: 'provider', format: 'anthropic', value: block },
    ]);
    expect(toAnthropicMessages(mem)).toStrictEqual(request);
  });

  it('round-trips random requests with tool use, results and extra fields', () => {
    fc.assert(
      fc.property(anthropicRequest, (request) => {
        const mem = fromAnthropicMessages(request as AnthropicInput);
        for (const message of mem) messageSchema.parse(message);
        expect(toAnthropicMessages(mem)).toStrictEqual(request);
        // As a store keeps them: plain JSON.
        expect(toAnthropicMessages(JSON.parse(JSON.stringify(mem)) as Message[])).toStrictEqual(
          request,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('keeps what mem messages carry through Anthropic and back', () => {
    fc.assert(
      fc.property(memConversation(anthropicShape), (messages) => {
        const back = fromAnthropicMessages(toAnthropicMessages(messages), sameIdsAs(messages));
        expect(essentials(back, { names: false, isError: true })).toStrictEqual(
          essentials(messages, { names: false, isError: true }),
        );
        expect(back.map((m) => m.id)).toStrictEqual(messages.map((m) => m.id));
      }),
      { numRuns: 200 },
    );
  });

  it('accepts a tool_result whose tool_use was converted in an earlier step', () => {
    const call: MessageParam[] = [
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
    ];
    const result: MessageParam[] = [
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '-3°C' }],
      },
    ];
    const step1 = fromAnthropicMessages({ messages: call });
    const step2 = fromAnthropicMessages({ messages: result }, sequentialIds());

    // The name is unknown without the tool_use: kept unset, the id links result and call.
    expect(step2).toStrictEqual([
      { id: 'id0', role: 'tool', content: '-3°C', toolCallId: 'toolu_1', createdAt: 42 },
    ]);
    expect(toAnthropicMessages([...step1, ...step2]).messages).toStrictEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '-3°C' }],
      },
    ]);
  });

  it('writes messages from other formats: one user message per run of tool results', () => {
    const messages: Message[] = [
      { id: 's1', role: 'system', content: 'Be brief.', createdAt: 0 },
      {
        id: 's2',
        role: 'system',
        content: [{ type: 'text', text: 'Summary: order 1042.' }],
        createdAt: 0,
      },
      { id: 'u', role: 'user', content: 'Weather in Berlin and Oslo?', createdAt: 1 },
      {
        id: 'a',
        role: 'assistant',
        content: 'Checking both.',
        toolCalls: [
          { id: 'c1', name: 'get_weather', arguments: '{"city": "Berlin"}' },
          { id: 'c2', name: 'get_weather', arguments: '{"city": "Oslo"}' },
        ],
        createdAt: 2,
      },
      {
        id: 't1',
        role: 'tool',
        content: '21°C',
        toolCallId: 'c1',
        toolName: 'get_weather',
        createdAt: 3,
      },
      {
        id: 't2',
        role: 'tool',
        content: [{ type: 'provider', format: 'openai', value: { type: 'text', text: 'x' } }],
        toolCallId: 'c2',
        toolName: 'get_weather',
        isError: true,
        createdAt: 4,
      },
      {
        id: 'r',
        role: 'assistant',
        content: [{ type: 'reasoning', text: 'unsigned' }],
        createdAt: 5,
      },
      {
        id: 'u2',
        role: 'user',
        content: [{ type: 'image', image: 'data:image/gif;base64,R0lG' }],
        createdAt: 6,
      },
    ];
    expect(toAnthropicMessages(messages)).toStrictEqual({
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Summary: order 1042.' },
      ],
      messages: [
        { role: 'user', content: 'Weather in Berlin and Oslo?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking both.' },
            { type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Berlin' } },
            { type: 'tool_use', id: 'c2', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'c1', content: '21°C' },
            { type: 'tool_result', tool_use_id: 'c2', content: '', is_error: true },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lG' } },
          ],
        },
      ],
    });
  });
});
