import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PlannedResponse, ProviderServer, RecordedRequest } from './provider-server-api.ts';
import {
  chatBody,
  embeddingsBody,
  errorBody,
  fakeEmbedding,
  type ProviderApi,
  type ProviderRequest,
  readProviderRequest,
} from './provider-wire.ts';

export type { PlannedResponse, ProviderServer, RecordedRequest } from './provider-server-api.ts';
export type { ProviderApi, ProviderRequest } from './provider-wire.ts';
export { countTokens, fakeEmbedding } from './provider-wire.ts';

const routes: Record<string, ProviderApi> = {
  '/v1/chat/completions': 'openai-chat',
  '/v1/embeddings': 'openai-embeddings',
  '/v1/messages': 'anthropic-messages',
};

type Responder = (request: ProviderRequest) => string | Promise<string>;
type Embed = (text: string, request: ProviderRequest) => number[];

const echo: Responder = (request) => request.prompt;
const defaultEmbed: Embed = (text, request) => fakeEmbedding(text, request.dimensions ?? 8);

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': `req_fixture_${Date.now()}`,
    ...headers,
  });
  res.end(text);
}

/**
 * Starts a provider server on 127.0.0.1 and a free port (see `ProviderServer` for what it speaks
 * and how to script it). Call `close()` when done.
 */
export async function startProviderServer(): Promise<ProviderServer> {
  const requests: RecordedRequest[] = [];
  let plans: PlannedResponse[] = [];
  let responder: Responder = echo;
  let embed: Embed = defaultEmbed;

  const reply = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const raw = await readBody(req);
    const body = parseJson(raw);
    requests.push({
      method: req.method ?? 'GET',
      path,
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [
          k,
          Array.isArray(v) ? v.join(', ') : (v ?? ''),
        ]),
      ),
      body,
    });
    const api = routes[path];
    if (api === undefined || req.method !== 'POST') {
      send(res, 404, {}, errorBody('openai-chat', 404, `no route ${req.method} ${path}`));
      return;
    }
    const index = plans.findIndex((p) => p.path === undefined || p.path === path);
    const planned: PlannedResponse = index === -1 ? {} : plans.splice(index, 1)[0]!;
    if (planned.hang) return; // never answered; the socket closes when the client aborts
    if (planned.delayMs) await new Promise((resolve) => setTimeout(resolve, planned.delayMs));
    if (res.destroyed) return;
    const status = planned.status ?? 200;
    const headers = planned.headers ?? {};
    if (planned.body !== undefined) return send(res, status, headers, planned.body);
    if (status >= 400)
      return send(res, status, headers, errorBody(api, status, planned.errorMessage));
    if (body === undefined) return send(res, 400, {}, errorBody(api, 400, 'body is not JSON'));
    if (body.stream === true) {
      return send(res, 400, {}, errorBody(api, 400, 'the fixture server does not stream'));
    }
    const request = readProviderRequest(api, body);
    let payload: Record<string, unknown>;
    if (api === 'openai-embeddings') {
      payload = embeddingsBody(
        request,
        request.input.map((text) => embed(text, request)),
      );
    } else {
      let text = planned.text ?? (await responder(request));
      // Anthropic continues an assistant prefill: send only what comes after it.
      if (request.prefill !== '' && text.startsWith(request.prefill)) {
        text = text.slice(request.prefill.length);
      }
      payload = chatBody(request, text, planned.truncated === true);
    }
    if (planned.malformedJson) {
      const json = JSON.stringify(payload);
      return send(res, status, headers, json.slice(0, Math.floor(json.length / 2)));
    }
    send(res, status, headers, payload);
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    reply(req, res, path).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        send(res, 500, {}, { error: { message: String(error), type: 'server_error' } });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    plan(response) {
      plans.push(response);
    },
    respondWith(next) {
      responder = next;
    },
    embedWith(next) {
      embed = next;
    },
    get pendingPlans() {
      return plans.length;
    },
    reset() {
      requests.length = 0;
      plans = [];
      responder = echo;
      embed = defaultEmbed;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
