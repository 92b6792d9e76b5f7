import type { ResponseInputItem } from 'openai/resources/responses/responses';

/** A Responses API history using every item kind and part mem maps, plus verbatim ones. */
export const responsesConversation: ResponseInputItem[] = [
  { role: 'developer', content: 'Answer in one sentence.' },
  { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'Be kind.' }] },
  { role: 'user', content: 'Where is order 1042?' },
  {
    role: 'user',
    content: [
      { type: 'input_text', text: 'Here is the label and the invoice.' },
      { type: 'input_image', image_url: 'https://cdn.example.com/label.png', detail: 'high' },
      { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
      {
        type: 'input_file',
        file_data: 'data:application/pdf;base64,JVBERi0xLjQ=',
        filename: 'invoice.pdf',
      },
      { type: 'input_file', file_id: 'file-abc123' },
    ],
  },
  {
    type: 'reasoning',
    id: 'rs_1',
    summary: [{ type: 'summary_text', text: 'Look the order up.' }],
    encrypted_content: 'gAAAAB-opaque',
  },
  {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_1',
    name: 'search_orders',
    arguments: '{"id": 1042}',
    status: 'completed',
  },
  { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"city":"Oslo"' },
  {
    type: 'function_call_output',
    call_id: 'call_2',
    output: 'error: arguments are not valid JSON',
  },
  {
    type: 'function_call_output',
    id: 'fco_1',
    call_id: 'call_1',
    output: [{ type: 'input_text', text: '{"status":"shipped","carrier":"DHL"}' }],
    status: 'completed',
  },
  {
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content: [
      {
        type: 'output_text',
        text: 'Order 1042 shipped with DHL.',
        annotations: [
          {
            type: 'url_citation',
            url: 'https://dhl.example',
            title: 'DHL',
            start_index: 0,
            end_index: 10,
          },
        ],
      },
      { type: 'refusal', refusal: 'I will not share the card number.' },
    ],
  },
  { role: 'user', content: 'Thanks. Search the web for the DHL hotline.' },
  {
    type: 'web_search_call',
    id: 'ws_1',
    status: 'completed',
    action: { type: 'search', query: 'DHL hotline' },
  },
  { role: 'assistant', content: 'The hotline is +49 228 28 60 90 90.', phase: 'final_answer' },
  { role: 'user', content: 'And the weather?' },
  { type: 'function_call', call_id: 'call_3', name: 'get_weather', arguments: '{"city":"Bonn"}' },
  { type: 'function_call_output', call_id: 'call_3', output: '12°C' },
  { role: 'assistant', content: '12°C in Bonn.' },
];
