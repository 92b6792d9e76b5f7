import type { ModelMessage } from 'ai-v7';

/** An AI SDK v7 history using the shapes v6 does not have, as `responseMessages` may hold them. */
export const modelConversationV7: ModelMessage[] = [
  { role: 'system', content: 'You are a support agent.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Invoice, label and contract:' },
      {
        type: 'file',
        mediaType: 'application/pdf',
        data: { type: 'data', data: new Uint8Array([37, 80, 68, 70]) },
        filename: 'invoice.pdf',
      },
      {
        type: 'file',
        mediaType: 'image',
        data: { type: 'url', url: new URL('https://x.test/l.png') },
      },
      {
        type: 'file',
        mediaType: 'application/pdf',
        data: { type: 'reference', reference: { openai: 'file-9' } },
      },
      { type: 'file', mediaType: 'text/plain', data: { type: 'text', text: 'Terms: net 30.' } },
      { type: 'image', image: { openai: 'file-img' } },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'custom', kind: 'openai.compaction', providerOptions: { openai: { id: 'cmp_1' } } },
      { type: 'reasoning-file', mediaType: 'image/png', data: { type: 'data', data: 'iVBORw==' } },
      { type: 'text', text: 'Fetching the contract.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'fetch_file', input: { id: 9 } },
      {
        type: 'tool-approval-request',
        approvalId: 'ap1',
        toolCallId: 'c1',
        isAutomatic: true,
        reason: 'read-only',
      },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-approval-response', approvalId: 'ap1', approved: true },
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'fetch_file',
        output: {
          type: 'content',
          value: [
            {
              type: 'file',
              mediaType: 'application/pdf',
              data: { type: 'data', data: 'JVBERi0=' },
            },
            { type: 'file-reference', providerReference: { openai: 'file-10' } },
            { type: 'image-file-reference', providerReference: { anthropic: 'file_11' } },
          ],
        },
      },
    ],
  },
  { role: 'assistant', content: 'The contract says net 30.' },
];
