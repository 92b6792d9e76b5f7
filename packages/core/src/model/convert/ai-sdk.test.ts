import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContentPart, Message } from '../message.ts';
import { messageSchema } from '../message-schema.ts';
import { modelHistory } from './__fixtures__/ai-sdk-arbitraries.ts';
import { modelConversation } from './__fixtures__/ai-sdk-conversation.ts';
import { modelHistoryV7 } from './__fixtures__/ai-sdk-v7-arbitraries.ts';
import { modelConversationV7 } from './__fixtures__/ai-sdk-v7-conversation.ts';
import { essentials, memConversation, sameIdsAs } from './__fixtures__/mem-arbitraries.ts';
import { aiSdkShape } from './__fixtures__/mem-shapes.ts';
import { sequentialIds } from './__fixtures__/test-helpers.ts';
import { fromModelMessages, toModelMessages } from './ai-sdk.ts';
import type { ModelMessageLike } from './ai-sdk-types.ts';

describe('fromModelMessages / toModelMessages', () => {
  it('round-trips a history using every part, output kind and binary form', () => {
    const mem = fromModelMessages(modelConversation, sequentialIds(9));
    expect(toModelMessages(mem)).toStrictEqual(modelConversation);
  });

  it('maps parts and outputs to typed mem fields', () => {
    const mem = fromModelMessages(modelConversation, sequentialIds(9));
    expect(mem.map((m) => m.role)).toStrictEqual([
      'system',
      'user',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'tool',
      'tool',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(mem[0]?.metadata).toStrictEqual({
      'mem.ai-sdk.message': {
        set: { providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
      },
    });
    expect(mem[2]?.content).toStrictEqual([
      { type: 'text', text: 'Label, photos and invoice:' },
      { type: 'image', image: 'https://cdn.example.com/label.png' },
      { type: 'image', image: 'iVBORw==', mediaType: 'image/png' },
      { type: 'image', image: 'https://cdn.example.com/box.jpg' },
      { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png', detail: 'low' },
      { type: 'file', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf', filename: 'invoice.pdf' },
      { type: 'file', data: 'AQID', mediaType: 'application/octet-stream' },
      { type: 'file', data: 'data:text/plain;base64,aGk=', mediaType: 'text/plain' },
    ] satisfies ContentPart[]);
    expect(mem[2]?.metadata).toStrictEqual({
      'mem.ai-sdk.parts': { 0: { providerOptions: { openai: { note: 'x' } } } },
      'mem.ai-sdk.binary': { 2: 'bytes', 3: 'url', 5: 'buffer', 6: 'arraybuffer' },
    });
    expect(mem[3]).toMatchObject({
      content: [
        { type: 'reasoning', text: 'Look the order up.', signature: 'EqQBCgIY' },
        { type: 'reasoning', text: '', redacted: 'EmwKAhgB' },
        { type: 'text', text: 'Checking.' },
        { type: 'text', text: 'And the weather.' },
      ],
      toolCalls: [
        { id: 'c1', name: 'search_orders', arguments: '{"id":1042}' },
        { id: 'c2', name: 'get_weather', arguments: '{"city":"Berlin"}' },
      ],
      metadata: {
        'mem.ai-sdk.parts': { 1: { providerOptions: { anthropic: { other: 1 } } } },
        'mem.ai-sdk.toolCalls': { 1: { providerOptions: { openai: { itemId: 'fc_1' } } } },
        'mem.ai-sdk.toolCallAt': [3, 5],
      },
    });
    expect(mem[4]).toMatchObject({
      role: 'tool',
      toolCallId: 'c2',
      toolName: 'get_weather',
      content: '{"celsius":21}',
      metadata: { 'mem.ai-sdk.outputType': 'json' },
    });
    expect(mem[5]).toMatchObject({ content: 'shipped', toolName: 'search_orders' });
    expect(mem[5]?.metadata).toBeUndefined();
    expect(mem[7]).toMatchObject({
      role: 'assistant',
      content: [{ type: 'provider', format: 'ai-sdk', value: { type: 'tool-approval-response' } }],
      metadata: { 'mem.ai-sdk.role': 'tool' },
    });
    expect(mem[8]).toMatchObject({
      content: 'SMTP timeout',
      isError: true,
      metadata: { 'mem.ai-sdk.continues': false },
    });
    expect(mem[10]).toMatchObject({ content: '{"code":400}', isError: true, toolCallId: 'c4' });
    expect(mem[9]?.toolCalls?.slice(0, 2)).toStrictEqual([
      { id: 'c4', name: 'get_weather', arguments: '{"city": "Ber' },
      { id: 'c5', name: 'run_sql', arguments: 'SELECT 1' },
    ]);
    expect(mem[11]).toMatchObject({
      content: '',
      isError: true,
      metadata: { 'mem.ai-sdk.outputType': 'execution-denied' },
    });
    expect(mem[12]).toMatchObject({ content: 'No emails on Sunday.', isError: true });
    expect(mem[13]?.content).toMatchObject([
      { type: 'text', text: 'Here is the file.' },
      { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
      { type: 'image', image: 'https://cdn.example.com/a.png' },
      { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'a.pdf' },
      { type: 'file', data: 'https://cdn.example.com/a.pdf', mediaType: 'application/pdf' },
      { type: 'provider', value: { type: 'file-url' } },
      { type: 'provider', value: { type: 'file-id' } },
      { type: 'provider', value: { type: 'image-file-id' } },
      { type: 'provider', value: { type: 'media' } },
      { type: 'provider', value: { type: 'custom' } },
    ]);
  });

  it('round-trips random histories with tool calls, results, approvals and binary data', () => {
    fc.assert(
      fc.property(modelHistory, (history) => {
        const mem = fromModelMessages(history);
        for (const message of mem) messageSchema.parse(message);
        expect(toModelMessages(mem)).toStrictEqual(history);
        // As a store keeps them: plain JSON.
        expect(toModelMessages(JSON.parse(JSON.stringify(mem)) as Message[])).toStrictEqual(
          history,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('reads v7 tagged file data as typed parts and keeps other v7 shapes verbatim', () => {
    const mem = fromModelMessages(modelConversationV7, sequentialIds(9));
    expect(mem[1]?.content).toStrictEqual([
      { type: 'text', text: 'Invoice, label and contract:' },
      { type: 'file', data: 'JVBERg==', mediaType: 'application/pdf', filename: 'invoice.pdf' },
      { type: 'file', data: 'https://x.test/l.png', mediaType: 'image' },
      {
        type: 'provider',
        format: 'ai-sdk',
        value: {
          type: 'file',
          mediaType: 'application/pdf',
          data: { type: 'reference', reference: { openai: 'file-9' } },
        },
      },
      {
        type: 'provider',
        format: 'ai-sdk',
        value: {
          type: 'file',
          mediaType: 'text/plain',
          data: { type: 'text', text: 'Terms: net 30.' },
        },
      },
      {
        type: 'provider',
        format: 'ai-sdk',
        value: { type: 'image', image: { openai: 'file-img' } },
      },
    ] satisfies ContentPart[]);
    expect(mem[1]?.metadata).toStrictEqual({
      'mem.ai-sdk.binary': { 1: 'tagged-bytes', 2: 'tagged-url' },
    });
    expect(mem[2]?.content).toMatchObject([
      { type: 'provider', value: { type: 'custom', kind: 'openai.compaction' } },
      { type: 'provider', value: { type: 'reasoning-file' } },
      { type: 'text', text: 'Fetching the contract.' },
      { type: 'provider', value: { type: 'tool-approval-request', isAutomatic: true } },
    ]);
    expect(mem[4]).toMatchObject({ role: 'tool', toolCallId: 'c1', toolName: 'fetch_file' });
    // Stored as JSON and read back, the tagged bytes and URL come back as they were given.
    const stored = JSON.parse(JSON.stringify(mem)) as Message[];
    expect(toModelMessages(stored)).toStrictEqual(modelConversationV7);
  });

  it('round-trips random v7 histories: tagged data, references, custom and reasoning files', () => {
    fc.assert(
      fc.property(modelHistoryV7, (history) => {
        const mem = fromModelMessages(history);
        for (const message of mem) messageSchema.parse(message);
        expect(toModelMessages(mem)).toStrictEqual(history);
        expect(toModelMessages(JSON.parse(JSON.stringify(mem)) as Message[])).toStrictEqual(
          history,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('keeps what mem messages carry through the AI SDK and back', () => {
    fc.assert(
      fc.property(memConversation(aiSdkShape), (messages) => {
        const back = fromModelMessages(toModelMessages(messages), sameIdsAs(messages));
        expect(essentials(back, { names: false, isError: true })).toStrictEqual(
          essentials(messages, { names: false, isError: true }),
        );
        expect(back.map((m) => m.createdAt)).toStrictEqual(messages.map((m) => m.createdAt));
      }),
      { numRuns: 200 },
    );
  });

  it('writes messages from other formats: tool results grouped, foreign parts left out', () => {
    const messages: Message[] = [
      {
        id: 's',
        role: 'system',
        content: [
          { type: 'text', text: 'A' },
          { type: 'text', text: 'B' },
        ],
        createdAt: 0,
      },
      { id: 'u', role: 'user', content: 'Weather?', createdAt: 1 },
      {
        id: 'a',
        role: 'assistant',
        content: 'Checking.',
        toolCalls: [
          { id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          { id: 'c2', name: 'get_weather', arguments: '{"city":"Rome"' },
        ],
        createdAt: 2,
      },
      {
        id: 't1',
        role: 'tool',
        content: 'cold',
        toolCallId: 'c1',
        toolName: 'get_weather',
        createdAt: 3,
      },
      {
        id: 't2',
        role: 'tool',
        content: [{ type: 'text', text: 'bad args' }],
        toolCallId: 'c2',
        toolName: 'get_weather',
        isError: true,
        createdAt: 4,
      },
      {
        id: 'x',
        role: 'user',
        content: [{ type: 'provider', format: 'openai', value: {} }],
        createdAt: 5,
      },
      {
        id: 'i',
        role: 'assistant',
        content: [{ type: 'image', image: 'https://x.test/a.png' }],
        createdAt: 6,
      },
    ];
    expect(toModelMessages(messages)).toStrictEqual([
      { role: 'system', content: 'A\nB' },
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Oslo' } },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: '{"city":"Rome"' },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'get_weather',
            output: { type: 'text', value: 'cold' },
          },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'get_weather',
            output: { type: 'error-text', value: 'bad args' },
          },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'file', data: 'https://x.test/a.png', mediaType: 'image/*' }],
      },
    ] satisfies ModelMessageLike[]);
  });
});
