import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat-completions request as the server received it. */
export interface ChatRequest {
  authorization: string | undefined;
  model: string;
  messages: Array<{ role: string; content: unknown }>;
}

/** What a test sees of the loopback server. */
export interface OpenAIServer {
  /** Base URL for the OpenAI SDK (`OPENAI_BASE_URL`), ending in `/v1`. */
  baseURL: string;
  /** Every chat-completions request received, oldest first. */
  requests: ChatRequest[];
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * Starts a server on 127.0.0.1 (a free port) that speaks the OpenAI Chat Completions wire format:
 * `POST /v1/chat/completions` answers `reply(request, n)` (n counts requests from 1) as a
 * non-streaming `chat.completion`; anything else is a 404 in OpenAI's error shape.
 */
export async function startOpenAIServer(
  reply: (request: ChatRequest, n: number) => string = (_, n) => `Reply ${n}.`,
): Promise<OpenAIServer> {
  const requests: ChatRequest[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions') {
      send(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid' } });
      return;
    }
    const body = (await readJson(req)) as { model: string; messages: ChatRequest['messages'] };
    const request: ChatRequest = {
      authorization: req.headers.authorization,
      model: body.model,
      messages: body.messages,
    };
    requests.push(request);
    const content = reply(request, requests.length);
    send(res, 200, {
      id: `chatcmpl-loopback-${requests.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: String(error), type: 'server' } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
