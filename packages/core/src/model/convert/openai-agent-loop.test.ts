import type { ChatCompletion, ChatCompletionMessage } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { sequentialIds } from './__fixtures__/test-helpers.ts';
import { fromOpenAIMessages, toOpenAIMessages } from './openai.ts';

/** The assistant message of a real Chat Completions response, as the OpenAI SDK returns it. */
function responseMessage(fields: Partial<ChatCompletionMessage>): ChatCompletionMessage {
  const completion: ChatCompletion = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        logprobs: null,
        message: {
          role: 'assistant',
          content: null,
          refusal: null,
          annotations: [],
          audio: null,
          function_call: null,
          ...fields,
        },
      },
    ],
  };
  return completion.choices[0]!.message;
}

describe('OpenAI conversion in an agent loop', () => {
  it('accepts a tool result whose call was converted in an earlier step', () => {
    const step1 = fromOpenAIMessages([
      { role: 'user', content: 'Weather in Oslo?' },
      responseMessage({
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          },
        ],
      }),
    ]);
    const [result] = fromOpenAIMessages(
      [{ role: 'tool', tool_call_id: 'call_1', content: '-3°C' }],
      sequentialIds(),
    );

    // The name is unknown without the call: kept unset, the id links result and call.
    expect(result).toStrictEqual({
      id: 'id0',
      role: 'tool',
      content: '-3°C',
      toolCallId: 'call_1',
      createdAt: 42,
    });
    expect(toOpenAIMessages([...step1, result!])).toStrictEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '-3°C' },
    ]);
  });

  it('still names the tool when its call is in the same batch', () => {
    const [, result] = fromOpenAIMessages([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
    ]);
    expect(result?.toolName).toBe('f');
  });

  it('never echoes response-only fields into the next request', () => {
    const reply = responseMessage({
      content: 'It is -3°C in Oslo.',
      annotations: [
        {
          type: 'url_citation',
          url_citation: { url: 'https://met.no', title: 'MET', start_index: 0, end_index: 5 },
        },
      ],
      audio: { id: 'audio_1', data: 'UklGRg==', expires_at: 1, transcript: 'It is -3°C in Oslo.' },
    });
    const [mem] = fromOpenAIMessages([reply]);

    expect(toOpenAIMessages([mem!])).toStrictEqual([
      { role: 'assistant', content: 'It is -3°C in Oslo.', audio: { id: 'audio_1' } },
    ]);
    // Citations are kept for the application, never sent back.
    expect(mem?.metadata?.['mem.openai.annotations']).toStrictEqual(reply.annotations);
  });

  it('sends a plain reply back as role and content only', () => {
    const [mem] = fromOpenAIMessages([responseMessage({ content: 'Hello.' })]);
    expect(mem?.metadata).toBeUndefined();
    expect(toOpenAIMessages([mem!])).toStrictEqual([{ role: 'assistant', content: 'Hello.' }]);
  });

  it('keeps a refusal as the message text, and sends it back as a refusal', () => {
    const [mem] = fromOpenAIMessages([responseMessage({ refusal: 'I cannot help with that.' })]);
    expect(mem?.content).toBe('I cannot help with that.');
    expect(toOpenAIMessages([mem!])).toStrictEqual([
      { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
    ]);
  });

  it('drops response-only fields that messages stored by earlier versions still carry', () => {
    const stored = {
      id: 'm',
      role: 'assistant' as const,
      content: 'Hello.',
      createdAt: 1,
      metadata: {
        'mem.openai.message': {
          set: { refusal: null, annotations: [], audio: null, function_call: null },
        },
      },
    };
    expect(toOpenAIMessages([stored])).toStrictEqual([{ role: 'assistant', content: 'Hello.' }]);
  });
});
