import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { createTokenCounter, MemValidationError, type Message } from '@mem/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { langChainFields, langChainMessage } from './__fixtures__/langchain-arbitraries.ts';
import { fromLangChainMessages } from './from-langchain.ts';
import { toLangChainMessages } from './to-langchain.ts';

/** What a store gives back: the message as JSON. */
const throughStore = (messages: Message[]) => JSON.parse(JSON.stringify(messages)) as Message[];

describe('LangChain ↔ mem conversion', () => {
  it('gives back every field of every message, also after a store (property)', () => {
    fc.assert(
      fc.property(fc.array(langChainMessage, { maxLength: 6 }), (messages) => {
        const mem = fromLangChainMessages(messages);
        const back = toLangChainMessages(throughStore(mem));
        expect(back.map(langChainFields)).toEqual(messages.map(langChainFields));
      }),
      { numRuns: 300 },
    );
  });

  it('produces messages mem can count, with the roles, tool calls and errors mem reads', () => {
    const counter = createTokenCounter();
    fc.assert(
      fc.property(fc.array(langChainMessage, { maxLength: 6 }), (messages) => {
        const mem = fromLangChainMessages(messages);
        for (const [i, m] of mem.entries()) {
          const source = messages[i] as unknown as Record<string, unknown>;
          expect(counter.countMessage(m)).toBeGreaterThan(0);
          const roles: Record<string, string> = {
            human: 'user',
            ai: 'assistant',
            system: 'system',
            tool: 'tool',
          };
          expect(m.role).toBe(roles[messages[i]?.type ?? '']);
          if (m.role === 'tool') {
            expect(m.toolCallId).toBe(source.tool_call_id);
            expect(m.isError).toBe(
              source.status === undefined ? undefined : source.status === 'error',
            );
          }
          if (m.role === 'assistant') {
            const calls = source.tool_calls as { id: string; name: string; args: unknown }[];
            expect(m.toolCalls ?? []).toEqual(
              calls.map((c) => ({ id: c.id, name: c.name, arguments: JSON.stringify(c.args) })),
            );
          }
        }
      }),
    );
  });

  it('maps text and image blocks onto mem parts, keeping nothing beside them', () => {
    const [human] = fromLangChainMessages([
      new HumanMessage({
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
        ],
      }),
    ]);
    expect(human?.content).toEqual([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image', image: 'https://example.com/cat.png', detail: 'low' },
    ]);
    expect(human?.metadata).toEqual({ langchain: {} });
  });

  it('reads a standard image block as a mem image part and keeps the block for the way back', () => {
    const block = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    const [human] = fromLangChainMessages([new HumanMessage({ content: [block] })]);
    expect(human?.content).toEqual([
      { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
    ]);
    expect(toLangChainMessages(human === undefined ? [] : [human])[0]?.content).toEqual([block]);
  });

  it('writes mem messages from elsewhere as LangChain messages (ids kept, bad arguments invalid)', () => {
    const back = toLangChainMessages([
      {
        id: 's1',
        role: 'system',
        content: 'Summary: the user likes tea.',
        createdAt: 1,
        metadata: { kind: 'summary' },
      },
      {
        id: 'a1',
        role: 'assistant',
        content: '',
        createdAt: 2,
        toolCalls: [
          { id: 'c1', name: 'lookup', arguments: '{"q":"tea"}' },
          { id: 'c2', name: 'lookup', arguments: '{"q":' },
        ],
      },
      {
        id: 't1',
        role: 'tool',
        content: 'boom',
        toolCallId: 'c1',
        toolName: 'lookup',
        isError: true,
        createdAt: 3,
      },
    ]);
    expect(back.map((m) => [m.type, m.id])).toEqual([
      ['system', 's1'],
      ['ai', 'a1'],
      ['tool', 't1'],
    ]);
    const ai = back[1] as AIMessage;
    expect(ai.tool_calls).toEqual([
      { type: 'tool_call', id: 'c1', name: 'lookup', args: { q: 'tea' } },
    ]);
    expect(ai.invalid_tool_calls).toMatchObject([{ id: 'c2', name: 'lookup', args: '{"q":' }]);
    const tool = back[2] as ToolMessage;
    expect([tool.tool_call_id, tool.name, tool.status]).toEqual(['c1', 'lookup', 'error']);
  });

  it('refuses what it cannot keep, naming the field', () => {
    const noId = new AIMessage({ content: '', tool_calls: [{ name: 'lookup', args: {} }] });
    expect(() => fromLangChainMessages([new HumanMessage('hi'), noId])).toThrow(
      expect.objectContaining({ field: 'messages[1].tool_calls[0].id' }),
    );
    const artifact = new ToolMessage({ content: 'ok', tool_call_id: 'c1', artifact: new Map() });
    expect(() => fromLangChainMessages([artifact])).toThrow(MemValidationError);
    expect(() => fromLangChainMessages([artifact])).toThrow(/messages\[0\]\.artifact must be JSON/);
    const emptyId = new ToolMessage({ content: 'ok', tool_call_id: '' });
    expect(() => fromLangChainMessages([emptyId])).toThrow(
      expect.objectContaining({ field: 'messages[0].tool_call_id' }),
    );
    expect(() => fromLangChainMessages([{ type: 'remove' } as never])).toThrow(/"remove" message/);
  });
});
