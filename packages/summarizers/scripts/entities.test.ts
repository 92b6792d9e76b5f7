import type { Message } from '@mem/core/summarize';
import { describe, expect, it } from 'vitest';
import { conversationText, coverage, extractEntities, keyEntities } from './entities.ts';

const at = 1_772_442_060_000;
const messages: Message[] = [
  { id: 'm1', role: 'system', content: 'You are Juno, an assistant.', createdAt: at },
  {
    id: 'm2',
    role: 'user',
    content: 'Please ask Marta Oliveira about ticket HX-4821 before 14 March.',
    createdAt: at,
  },
  {
    id: 'm3',
    role: 'assistant',
    content: '',
    createdAt: at,
    toolCalls: [{ id: 'c1', name: 'lookup_ticket', arguments: '{"id":"HX-4821"}' }],
  },
  {
    id: 'm4',
    role: 'tool',
    content: 'timeout after 30 s',
    createdAt: at,
    toolCallId: 'c1',
    toolName: 'lookup_ticket',
    isError: true,
  },
];

describe('entity coverage', () => {
  it('finds names, ids, dates and tool outcomes, but not the system prompt', () => {
    const labels = extractEntities(messages).map((e) => `${e.category}:${e.label}`);
    expect(labels).toEqual(
      expect.arrayContaining([
        'names:Marta Oliveira',
        'numbers:HX-4821',
        'dates:14 March',
        'tools:lookup_ticket (error)',
      ]),
    );
    expect(labels.some((l) => l.includes('Juno'))).toBe(false);
    expect(labels).not.toContain('names:March');
  });

  it('counts an entity as kept only when the summary contains it', () => {
    const entities = extractEntities(messages);
    const full = coverage(
      entities,
      'marta oliveira; hx-4821 due 14 March; lookup_ticket timed out after 30 s',
    );
    const none = coverage(entities, 'A user asked about a ticket.');
    for (const row of full) expect(row.kept).toBe(row.total);
    for (const row of none) expect(row.kept).toBe(0);
  });

  it('rejects an answer key naming something the conversation does not contain', () => {
    const text = conversationText(messages);
    expect(keyEntities({ numbers: ['HX-4821'] }, text)).toHaveLength(1);
    expect(() => keyEntities({ numbers: ['HX-9999'] }, text)).toThrow(/HX-9999/);
  });
});
