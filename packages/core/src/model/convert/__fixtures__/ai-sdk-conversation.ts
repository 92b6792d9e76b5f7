import type { ModelMessage } from 'ai';

/** An AI SDK v6 history using every part kind, tool output kind and binary data form. */
export const modelConversation: ModelMessage[] = [
  {
    role: 'system',
    content: 'You are a support agent.',
    providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
  },
  { role: 'user', content: 'Where is order 1042?' },
  {
    role: 'user',
    content: [
      {
        type: 'text',
        text: 'Label, photos and invoice:',
        providerOptions: { openai: { note: 'x' } },
      },
      { type: 'image', image: 'https://cdn.example.com/label.png' },
      { type: 'image', image: new Uint8Array([137, 80, 78, 71]), mediaType: 'image/png' },
      { type: 'image', image: new URL('https://cdn.example.com/box.jpg') },
      {
        type: 'image',
        image: 'iVBORw0KGgo=',
        mediaType: 'image/png',
        providerOptions: { openai: { imageDetail: 'low' } },
      },
      {
        type: 'file',
        data: Buffer.from('%PDF-1.4'),
        mediaType: 'application/pdf',
        filename: 'invoice.pdf',
      },
      {
        type: 'file',
        data: new Uint8Array([1, 2, 3]).buffer,
        mediaType: 'application/octet-stream',
      },
      { type: 'file', data: 'data:text/plain;base64,aGk=', mediaType: 'text/plain' },
    ],
  },
  {
    role: 'assistant',
    content: [
      {
        type: 'reasoning',
        text: 'Look the order up.',
        providerOptions: { anthropic: { signature: 'EqQBCgIY' } },
      },
      {
        type: 'reasoning',
        text: '',
        providerOptions: { anthropic: { redactedData: 'EmwKAhgB', other: 1 } },
      },
      { type: 'text', text: 'Checking.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'search_orders', input: { id: 1042 } },
      { type: 'text', text: 'And the weather.' },
      {
        type: 'tool-call',
        toolCallId: 'c2',
        toolName: 'get_weather',
        input: { city: 'Berlin' },
        providerOptions: { openai: { itemId: 'fc_1' } },
      },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c2',
        toolName: 'get_weather',
        output: { type: 'json', value: { celsius: 21 } },
      },
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'search_orders',
        output: { type: 'text', value: 'shipped' },
      },
    ],
    providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
  },
  {
    role: 'assistant',
    content: [
      {
        type: 'tool-call',
        toolCallId: 'ws1',
        toolName: 'web_search',
        input: { query: 'DHL' },
        providerExecuted: true,
      },
      {
        type: 'tool-result',
        toolCallId: 'ws1',
        toolName: 'web_search',
        output: { type: 'json', value: [] },
      },
      { type: 'text', text: 'No DHL strike. Sending the email needs approval.' },
      {
        type: 'tool-call',
        toolCallId: 'c3',
        toolName: 'send_email',
        input: { to: 'priya@example.com' },
      },
      { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c3' },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-approval-response', approvalId: 'ap1', approved: true, reason: 'fine' },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c3',
        toolName: 'send_email',
        output: { type: 'error-text', value: 'SMTP timeout' },
        providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
      },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'c4', toolName: 'get_weather', input: '{"city": "Ber' },
      { type: 'tool-call', toolCallId: 'c5', toolName: 'run_sql', input: 'SELECT 1' },
      { type: 'tool-call', toolCallId: 'c6', toolName: 'send_email', input: {} },
      { type: 'tool-call', toolCallId: 'c7', toolName: 'read_file', input: { path: 'a.png' } },
      { type: 'tool-call', toolCallId: 'c8', toolName: 'create_ticket', input: {} },
      { type: 'file', data: 'R0lGODlh', mediaType: 'image/gif' },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c4',
        toolName: 'get_weather',
        output: { type: 'error-json', value: { code: 400 } },
      },
      {
        type: 'tool-result',
        toolCallId: 'c5',
        toolName: 'run_sql',
        output: { type: 'execution-denied' },
      },
      {
        type: 'tool-result',
        toolCallId: 'c6',
        toolName: 'send_email',
        output: {
          type: 'execution-denied',
          reason: 'No emails on Sunday.',
          providerOptions: { openai: { a: 1 } },
        },
      },
      {
        type: 'tool-result',
        toolCallId: 'c7',
        toolName: 'read_file',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: 'Here is the file.' },
            { type: 'image-data', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
            {
              type: 'image-url',
              url: 'https://cdn.example.com/a.png',
              providerOptions: { openai: { x: true } },
            },
            {
              type: 'file-data',
              data: 'JVBERi0=',
              mediaType: 'application/pdf',
              filename: 'a.pdf',
            },
            {
              type: 'file-url',
              url: 'https://cdn.example.com/a.pdf',
              mediaType: 'application/pdf',
            },
            { type: 'file-url', url: 'https://cdn.example.com/b' },
            { type: 'file-id', fileId: { openai: 'file-1', anthropic: 'file_1' } },
            { type: 'image-file-id', fileId: 'file-2' },
            { type: 'media', data: 'AAAA', mediaType: 'audio/wav' },
            { type: 'custom', providerOptions: { anthropic: { type: 'search_result' } } },
          ],
        },
      },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c8',
        toolName: 'create_ticket',
        output: { type: 'json', value: 'T-1' },
      },
    ],
  },
  { role: 'assistant', content: 'The email could not be sent; ticket T-1 is open.' },
];
