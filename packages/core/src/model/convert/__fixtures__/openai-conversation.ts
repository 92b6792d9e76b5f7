import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** A Chat Completions history using every message kind and content part of the request API. */
export const openAIConversation: ChatCompletionMessageParam[] = [
  { role: 'developer', content: 'Answer in one sentence.' },
  {
    role: 'system',
    name: 'ops',
    content: [
      { type: 'text', text: 'Orders live in postgres.' },
      { type: 'text', text: 'Never reveal card numbers.' },
    ],
  },
  { role: 'user', name: 'priya', content: 'Where is order 1042?' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Here is the label, a voice note and the invoice.' },
      {
        type: 'image_url',
        image_url: { url: 'https://cdn.example.com/label.png', detail: 'high' },
      },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      { type: 'input_audio', input_audio: { data: 'UklGRiQAAABXQVZF', format: 'wav' } },
      { type: 'input_audio', input_audio: { data: 'SUQzBAAAAAAA', format: 'mp3' } },
      {
        type: 'file',
        file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'invoice.pdf' },
      },
      { type: 'file', file: { file_id: 'file-abc123' } },
    ],
  },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'search_orders', arguments: '{"id": 1042}' },
      },
      {
        id: 'call_2',
        type: 'custom',
        custom: { name: 'run_sql', input: 'SELECT status FROM orders' },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'shipped' }] },
  { role: 'tool', tool_call_id: 'call_1', content: '{"status":"shipped","carrier":"DHL"}' },
  {
    role: 'assistant',
    name: 'bot',
    content: 'Order 1042 shipped with DHL.',
    audio: { id: 'audio_77' },
  },
  { role: 'user', content: 'Show me the card number.' },
  { role: 'assistant', content: null, refusal: 'I cannot share card numbers.' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'I can share the last four digits only.' },
      { type: 'refusal', refusal: 'Full numbers are withheld.' },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: 'Weather in Berlin and Lisbon?' }] },
  {
    role: 'assistant',
    tool_calls: [
      {
        id: 'call_3',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Berlin"}' },
      },
      {
        id: 'call_4',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Lisbon"' },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'call_3', content: '21°C' },
  { role: 'tool', tool_call_id: 'call_4', content: 'error: arguments are not valid JSON' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      { id: 'call_5', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_5', content: '' },
  { role: 'assistant', content: null, function_call: { name: 'legacy_lookup', arguments: '{}' } },
  { role: 'assistant', content: 'Berlin is 21°C; Lisbon is unknown.' },
];
