import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server answers to one request: text, or tool calls. */
export type ScriptedReply =
  | string
  | { toolCalls: Array<{ id: string; name: string; arguments: string }> };

export interface ChatCompletionsServer {
  /** Base URL for an OpenAI client, ending in `/v1`. */
  baseURL: string;
  /** The bodies of every `POST /v1/chat/completions`, oldest first. */
  requests: Array<{ messages: unknown[]; stream?: boolean }>;
  close(): Promise<void>;
}

const usage = { prompt_tokens: 1234, completion_tokens: 7, total_tokens: 1241 };

function message(reply: ScriptedReply) {
  if (typeof reply === 'string') return { role: 'assistant', content: reply };
  return {
    role: 'assistant',
    content: null,
    tool_calls: reply.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    })),
  };
}

function finishReason(reply: ScriptedReply): string {
  return typeof reply === 'string' ? 'stop' : 'tool_calls';
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendStream(res: ServerResponse, reply: ScriptedReply, n: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: object, finish: string | null, extra: object = {}) =>
    `data: ${JSON.stringify({
      id: `chatcmpl-${n}`,
      object: 'chat.completion.chunk',
      created: 0,
      model: 'gpt-loopback',
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    })}\n\n`;
  const full = message(reply);
  if (typeof reply === 'string') {
    res.write(chunk({ role: 'assistant', content: '' }, null));
    for (const word of reply.split(/(?<= )/)) res.write(chunk({ content: word }, null));
  } else {
    res.write(
      chunk(
        {
          role: 'assistant',
          tool_calls: full.tool_calls?.map((c, index) => ({ index, ...c })),
        },
        null,
      ),
    );
  }
  res.write(chunk({}, finishReason(reply), { usage }));
  res.end('data: [DONE]\n\n');
}

/**
 * A server on 127.0.0.1 speaking OpenAI Chat Completions (JSON and server-sent events): request n
 * gets `replies[n - 1]` (the last one again once they run out), with a fixed usage.
 */
export async function startChatCompletionsServer(
  replies: readonly ScriptedReply[],
): Promise<ChatCompletionsServer> {
  const requests: ChatCompletionsServer['requests'] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        sendJson(res, 404, { error: { message: `no route ${req.url}`, type: 'invalid' } });
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      requests.push(body);
      const n = requests.length;
      const reply = replies[Math.min(n, replies.length) - 1] ?? '';
      if (body.stream === true) {
        sendStream(res, reply, n);
        return;
      }
      sendJson(res, 200, {
        id: `chatcmpl-${n}`,
        object: 'chat.completion',
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: message(reply), finish_reason: finishReason(reply) }],
        usage,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
