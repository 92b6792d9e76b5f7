import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One `POST /v1/responses` request body as the server received it. */
export interface ResponsesRequest {
  model: string;
  input: Array<Record<string, unknown>>;
  tools?: unknown[];
}

/** An output item of the Responses API, as the server sends it. */
export type OutputItem = Record<string, unknown>;

export interface ResponsesServer {
  /** Base URL for the OpenAI SDK, ending in `/v1`. */
  baseURL: string;
  /** Every request received, oldest first. */
  requests: ResponsesRequest[];
  close(): Promise<void>;
}

/** A function call the model asks for. */
export function functionCall(callId: string, name: string, args: unknown): OutputItem {
  return {
    type: 'function_call',
    id: `fc_${callId}`,
    call_id: callId,
    name,
    arguments: JSON.stringify(args),
    status: 'completed',
  };
}

/** An assistant text answer. */
export function assistantText(id: string, text: string): OutputItem {
  return {
    type: 'message',
    id,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

/**
 * A server on 127.0.0.1 (a free port) speaking the OpenAI Responses wire format, non-streaming:
 * `POST /v1/responses` answers with the output items `reply(request, n)` returns (n counts
 * requests from 1); anything else is a 404 in OpenAI's error shape.
 */
export async function startResponsesServer(
  reply: (request: ResponsesRequest, n: number) => OutputItem[],
): Promise<ResponsesServer> {
  const requests: ResponsesRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/responses') {
      send(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid' } });
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ResponsesRequest;
    requests.push(request);
    const n = requests.length;
    send(res, 200, {
      id: `resp_loopback_${n}`,
      object: 'response',
      created_at: 1_700_000_000 + n,
      status: 'completed',
      model: request.model,
      output: reply(request, n),
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      usage: {
        input_tokens: 10 * n,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 10 * n + 5,
      },
    });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      send(res, 500, { error: { message: String(error) } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
