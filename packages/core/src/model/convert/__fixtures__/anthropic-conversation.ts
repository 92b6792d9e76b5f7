import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';

type AnthropicRequest = Pick<MessageCreateParamsNonStreaming, 'system' | 'messages'>;

/** An Anthropic request history using every block kind mem types, plus server tool blocks. */
export const anthropicConversation: AnthropicRequest = {
  system: [
    {
      type: 'text',
      text: 'You are a support agent for an online shop.',
      cache_control: { type: 'ephemeral' },
    },
    { type: 'text', text: 'Orders live in postgres.' },
  ],
  messages: [
    { role: 'user', content: 'Where is order 1042? Documents attached.' },
    {
      role: 'user',
      content: [
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
        },
        { type: 'image', source: { type: 'url', url: 'https://cdn.example.com/label.jpg' } },
        { type: 'image', source: { type: 'file', file_id: 'file_011' } },
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' },
          title: 'invoice.pdf',
          context: 'Invoice for order 1042',
          citations: { enabled: true },
        },
        {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: 'Shipped via DHL — Zürich ✓' },
        },
        {
          type: 'document',
          source: { type: 'url', url: 'https://example.com/terms.pdf' },
          title: null,
        },
        {
          type: 'document',
          source: { type: 'content', content: [{ type: 'text', text: 'Returns within 30 days.' }] },
        },
        {
          type: 'search_result',
          source: 'https://wiki.example.com/shipping',
          title: 'Shipping',
          content: [{ type: 'text', text: 'DHL delivers in 2 days.' }],
        },
        { type: 'text', text: 'Please check.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'thinking',
          thinking: 'Look the order up, then the weather.',
          signature: 'EqQBCgIYAhIM',
        },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
        { type: 'text', text: 'Let me check the order.' },
        {
          type: 'tool_use',
          id: 'toolu_01',
          name: 'search_orders',
          input: { id: 1042, fields: ['status', 'carrier'] },
          cache_control: { type: 'ephemeral' },
        },
        { type: 'text', text: 'And the weather at the depot.' },
        { type: 'tool_use', id: 'toolu_02', name: 'get_weather', input: { city: 'Berlin' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01',
          content: '{"status":"shipped","carrier":"DHL"}',
        },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_02',
          content: [
            { type: 'text', text: '21°C' },
            { type: 'image', source: { type: 'url', url: 'https://maps.example.com/berlin.png' } },
          ],
          is_error: false,
          cache_control: { type: 'ephemeral' },
        },
        { type: 'text', text: 'Thanks. Is DHL on strike?' },
      ],
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'server_tool_use',
          id: 'srvtoolu_01',
          name: 'web_search',
          input: { query: 'DHL strike' },
        },
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_01',
          content: [
            {
              type: 'web_search_result',
              url: 'https://news.example.com/dhl',
              title: 'No strike',
              encrypted_content: 'Eq0CCkYIBxgC',
              page_age: 'April 2, 2026',
            },
          ],
        },
        {
          type: 'text',
          text: 'There is no strike.',
          citations: [
            {
              type: 'web_search_result_location',
              url: 'https://news.example.com/dhl',
              title: 'No strike',
              encrypted_index: 'Eo8BCkYIBxgC',
              cited_text: 'DHL operations are normal.',
            },
          ],
        },
        { type: 'tool_use', id: 'toolu_03', name: 'send_email', input: {} },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_03', content: 'SMTP timeout', is_error: true },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_04', name: 'send_email', input: { retry: true } },
        { type: 'tool_use', id: 'toolu_05', name: 'create_ticket', input: { topic: 'smtp' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_04' }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_05', content: [] }] },
    { role: 'assistant', content: 'Erledigt: die E-Mail ist raus.' },
  ],
};
