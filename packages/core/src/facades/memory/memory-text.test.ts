import { describe, expect, it } from 'vitest';
import type { Message } from '../../model/message.ts';
import { renderMemoryText } from './memory-text.ts';

const at = (m: Omit<Message, 'id' | 'createdAt'>, i: number): Message => ({
  ...m,
  id: `m${i}`,
  createdAt: 0,
});

describe('renderMemoryText', () => {
  it('labels each message by role; summaries without their header; text parts joined', () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'system',
        content:
          'Summary of the earlier conversation (3 interactions, 2025-01-01 10:00 to 2025-01-01 10:05):\nMarco likes tea.',
        metadata: { kind: 'summary' },
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'text', text: 'up' },
        ],
      },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'search', arguments: '{}' }],
      },
      { role: 'tool', content: 'found it', toolCallId: 'c1', toolName: 'search' },
      { role: 'assistant', content: 'Done.' },
    ].map((m, i) => at(m as Omit<Message, 'id' | 'createdAt'>, i));
    expect(renderMemoryText(messages)).toBe(
      [
        'System: Be brief.',
        'Summary of earlier turns: Marco likes tea.',
        'User: look\nup',
        'Assistant: ',
        'Tool (search): found it',
        'Assistant: Done.',
      ].join('\n'),
    );
  });
});
