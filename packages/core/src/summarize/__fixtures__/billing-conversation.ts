import type { Message } from '../../model/message.ts';

const start = Date.UTC(2024, 2, 14, 9);
let n = 0;
const at = (m: Omit<Message, 'id' | 'createdAt'>): Message => ({
  id: `b${++n}`,
  createdAt: start + n * 60_000,
  ...m,
});

/** Chatter with no names, numbers, decisions or errors: what an extractive summary may drop. */
const filler = (): Message[] => [
  at({ role: 'user', content: 'ok, that sounds good to me, thanks a lot for looking into it.' }),
  at({
    role: 'assistant',
    content:
      'you are welcome, happy to help with anything else that comes up while we are going through this together.',
  }),
];

/**
 * A support conversation with names, amounts, ids, dates, a percentage, a decision, an action
 * item, a successful tool call and a failing one — buried in chatter.
 */
export function billingConversation(): Message[] {
  n = 0;
  return [
    at({
      role: 'user',
      content:
        "Hi, I'm Priya Raman from Acme Logistics. Order AF-1042 was charged $1,249.99 twice on 2024-03-14.",
    }),
    at({
      role: 'assistant',
      content: 'Let me look that order up.',
      toolCalls: [{ id: 'c1', name: 'search_orders', arguments: '{"order_id":"AF-1042"}' }],
    }),
    at({
      role: 'tool',
      toolCallId: 'c1',
      toolName: 'search_orders',
      content: 'Order AF-1042: 2 charges of $1,249.99 on card ending 4242.',
    }),
    ...filler(),
    at({
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'c2', name: 'refund_payment', arguments: '{"order_id":"AF-1042","amount":1249.99}' },
      ],
    }),
    at({
      role: 'tool',
      toolCallId: 'c2',
      toolName: 'refund_payment',
      isError: true,
      content: 'Error: refund_payment failed: gateway timeout (HTTP 504)',
    }),
    ...filler(),
    at({
      role: 'user',
      content:
        'Please escalate it. We agreed with Marco Rossi that refunds over $1,000 need approval from finance.',
    }),
    ...filler(),
    at({
      role: 'assistant',
      content:
        'Decision: I will open ticket FIN-2291 for finance approval, due Friday at 17:00 CET.',
    }),
    ...filler(),
    at({ role: 'user', content: 'Also, conversion dropped 12.5% in Lisbon last week.' }),
    ...filler(),
    ...filler(),
    at({ role: 'user', content: 'Thanks, that fixed it!' }),
  ];
}
