import { createMemoryEngine, MemValidationError } from '@mem/core';
import type { AgentInputItem } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { AGENT_ITEM_KEY, itemToMessage, messageToItems } from './agent-items.ts';
import { MemAgentsSession } from './mem-agents-session.ts';
import { validateItems } from './validate-items.ts';

const items = [
  { role: 'developer', content: 'Be brief.' },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
  {
    type: 'reasoning',
    id: 'rs_1',
    content: [{ type: 'input_text', text: 'The user greets.' }],
    providerData: { encrypted_content: 'opaque' },
  },
  { type: 'function_call', callId: 'c1', name: 'lookup', arguments: '{"q":1}', id: 'fc_1' },
  {
    type: 'function_call_result',
    callId: 'c1',
    name: 'lookup',
    status: 'completed',
    output: { type: 'text', text: 'found' },
  },
  { type: 'hosted_tool_call', name: 'web_search_call', status: 'completed', id: 'ws_1' },
  {
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'Hello!' }],
  },
] as AgentInputItem[];

describe('Agents SDK items as mem messages', () => {
  it('derive roles, text and tool fields, and keep the item verbatim', () => {
    const messages = validateItems(items).map(itemToMessage);
    expect(messages.map((m) => [m.role, m.content, m.toolCalls, m.toolCallId])).toStrictEqual([
      ['system', 'Be brief.', undefined, undefined],
      ['user', 'Hi', undefined, undefined],
      ['assistant', 'The user greets.', undefined, undefined],
      ['assistant', '', [{ id: 'c1', name: 'lookup', arguments: '{"q":1}' }], undefined],
      ['tool', 'found', undefined, 'c1'],
      ['assistant', JSON.stringify(items[5]), undefined, undefined],
      ['assistant', 'Hello!', undefined, undefined],
    ]);
    const back = messages.map((m) => messageToItems({ id: 'x', createdAt: 0, ...m }));
    expect(back.flat()).toStrictEqual(items);
    expect(messages[0]?.metadata?.[AGENT_ITEM_KEY]).not.toBe(items[0]);
  });

  it('read a summary as a system message item, and other messages as Responses items', async () => {
    const engine = createMemoryEngine({ profile: {} });
    await engine.session('s').append([
      { role: 'user', content: 'My name is Ada and I work on engines.' },
      {
        role: 'assistant',
        content: 'Noted, Ada.',
        toolCalls: [{ id: 't', name: 'save', arguments: '{}' }],
      },
      { role: 'tool', content: 'saved', toolCallId: 't', toolName: 'save' },
      { role: 'user', content: 'What is my name?' },
    ]);
    await engine.session('s').summarizeNow({ keepInteractions: 1 });
    const session = new MemAgentsSession({ engine, sessionId: 's' });
    const got = await session.getItems();
    expect(got[0]).toMatchObject({ type: 'message', role: 'system' });
    expect(String((got[0] as { content: string }).content)).toContain('Ada');
    expect(got.slice(1)).toStrictEqual([
      { type: 'message', role: 'user', content: 'What is my name?' },
    ]);
    // A summary is never popped.
    await engine.session('s').pop();
    expect(await session.popItem()).toBeUndefined();
    expect((await session.getItems())[0]).toMatchObject({ role: 'system' });
  });

  it('refuse bad options and arguments with MemValidationError naming the field', async () => {
    const engine = createMemoryEngine({ profile: {} });
    const fieldOf = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return error instanceof MemValidationError ? error.field : 'other error';
      }
      return 'no error';
    };
    expect(fieldOf(() => new MemAgentsSession({ engine: {} as never, sessionId: 's' }))).toBe(
      'engine',
    );
    expect(fieldOf(() => new MemAgentsSession({ engine, sessionId: '' }))).toBe('sessionId');
    const session = new MemAgentsSession({ engine, sessionId: 's' });
    await expect(session.getItems(-1)).rejects.toMatchObject({ field: 'limit' });
    await expect(session.addItems('x' as never)).rejects.toMatchObject({ field: 'items' });
    await session.addItems([]);
    expect(await session.getItems()).toStrictEqual([]);
    expect(await session.getSessionId()).toBe('s');
  });
});
