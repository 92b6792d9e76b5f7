import type { Message } from '../../message.ts';

/**
 * A context as mem builds it: system prompt, summary and retrieved knowledge as system
 * messages, then a tool round and the new question.
 */
export const memContext: Message[] = [
  { id: 's', role: 'system', content: 'You are a support agent.', createdAt: 0 },
  {
    id: 'sum',
    role: 'system',
    content: 'Summary: order 1042 was delayed; the customer asked for tracking.',
    metadata: { kind: 'summary' },
    createdAt: 1,
  },
  {
    id: 'k',
    role: 'system',
    content: [{ type: 'text', text: 'Knowledge: refunds take 5 days.' }],
    createdAt: 2,
  },
  { id: 'u1', role: 'user', content: 'Where is order 1042?', createdAt: 3 },
  {
    id: 'a1',
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c1', name: 'track', arguments: '{"order":1042}' }],
    createdAt: 4,
  },
  { id: 't1', role: 'tool', content: 'In Oslo', toolCallId: 'c1', toolName: 'track', createdAt: 5 },
  { id: 'u2', role: 'user', content: 'And the refund?', createdAt: 6 },
];

export const memContextSystem = [
  'You are a support agent.',
  'Summary: order 1042 was delayed; the customer asked for tracking.',
  'Knowledge: refunds take 5 days.',
].join('\n\n');
