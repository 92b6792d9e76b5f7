import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type {
  ResponseInput,
  ResponseInputItem,
  ResponseOutputItem,
} from 'openai/resources/responses/responses';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { type Message, messageText } from '../message.ts';
import { responsesConversation } from './__fixtures__/responses-conversation.ts';
import { fromResponsesItems, toResponsesInput } from './responses.ts';
import type { ResponsesItem, ResponsesItemLike } from './responses-types.ts';

/** A loopback server speaking the Responses API: answers each POST /v1/responses with `outputs[n]`. */
async function startResponsesServer(outputs: unknown[][]) {
  const bodies: { model: string; input: unknown }[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (req.method !== 'POST' || req.url !== '/v1/responses') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'no route', type: 'invalid_request_error' } }));
      return;
    }
    bodies.push(body);
    const n = bodies.length;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: `resp_${n}`,
        object: 'response',
        created_at: 1,
        status: 'completed',
        model: body.model,
        output: outputs[n - 1] ?? [],
        parallel_tool_calls: true,
        tool_choice: 'auto',
        tools: [],
        usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    bodies,
    client: new OpenAI({ apiKey: 'sk-loopback-test', baseURL: `http://127.0.0.1:${port}/v1` }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('Responses API: the real OpenAI SDK', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('types: SDK items are accepted, written items are a valid `input`', () => {
    expectTypeOf<ResponseInputItem>().toExtend<ResponsesItemLike>();
    expectTypeOf<ResponseOutputItem>().toExtend<ResponsesItemLike>();
    expectTypeOf<ResponsesItem>().toExtend<ResponseInputItem>();
    const input: ResponseInput = toResponsesInput(fromResponsesItems(responsesConversation));
    expect(input).toStrictEqual(responsesConversation);
  });

  it('runs a tool loop through client.responses.create, step by step', async () => {
    const reasoning = {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Need the weather.' }],
      encrypted_content: 'gAAAAB-opaque',
    };
    const call = {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
      status: 'completed',
    };
    const answer = {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'It is -3°C in Oslo.', annotations: [] }],
    };
    const server = await startResponsesServer([[reasoning, call], [answer]]);
    close = server.close;

    const history: Message[] = fromResponsesItems([{ role: 'user', content: 'Weather in Oslo?' }]);
    const first = await server.client.responses.create({
      model: 'gpt-5-mini',
      input: toResponsesInput(history),
    });
    history.push(...fromResponsesItems(first.output));
    expect(history.at(-1)?.toolCalls).toStrictEqual([
      { id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    ]);

    // The tool result alone, its call converted in the step before.
    history.push(
      ...fromResponsesItems([{ type: 'function_call_output', call_id: 'call_1', output: '-3°C' }]),
    );
    const second = await server.client.responses.create({
      model: 'gpt-5-mini',
      input: toResponsesInput(history),
    });
    history.push(...fromResponsesItems(second.output));

    expect(server.bodies.map((b) => b.input)).toStrictEqual([
      [{ role: 'user', content: 'Weather in Oslo?' }],
      [
        { role: 'user', content: 'Weather in Oslo?' },
        reasoning, // sent back unchanged, encrypted content included
        call,
        { type: 'function_call_output', call_id: 'call_1', output: '-3°C' },
      ],
    ]);
    expect(history.map((m) => [m.role, messageText(m)])).toStrictEqual([
      ['user', 'Weather in Oslo?'],
      ['assistant', ''],
      ['tool', '-3°C'],
      ['assistant', 'It is -3°C in Oslo.'],
    ]);
    expect(toResponsesInput(history).at(-1)).toStrictEqual(answer);
  });
});
