import type { ProviderRequest } from './provider-wire.ts';

/**
 * A real HTTP server on 127.0.0.1 that speaks the provider wire formats, for tests with the real
 * SDK clients:
 *
 * - OpenAI `POST /v1/chat/completions` (non-streaming) and `POST /v1/embeddings` (float or
 *   `encoding_format: 'base64'`, which the openai SDK asks for by default);
 * - Anthropic `POST /v1/messages`.
 *
 * Point clients at it with `new OpenAI({ apiKey: 'test', baseURL: server.url + '/v1' })`,
 * `new Anthropic({ apiKey: 'test', baseURL: server.url })`,
 * `createOpenAI({ apiKey: 'test', baseURL: server.url + '/v1' })`,
 * `createAnthropic({ apiKey: 'test', baseURL: server.url + '/v1' })`.
 *
 * Each request takes the first planned response (`plan`) whose `path` matches, else the default:
 * chat endpoints answer with `respondWith`'s text (default: echoes the prompt), embeddings with
 * `embedWith`'s vectors (default: `fakeEmbedding`, 8 dimensions unless `dimensions` is sent).
 * Every request is recorded in `requests`.
 *
 * @example
 * const server = await startProviderServer();
 * server.respondWith((req) => JSON.stringify({ summary: req.prompt.slice(0, 20) }));
 * server.plan({ status: 429, headers: { 'retry-after': '1' } }); // first request: rate limited
 * server.plan({ hang: true, path: '/v1/messages' });            // first Anthropic request hangs
 * ...
 * expect(server.requests[0]?.body).toMatchObject({ model: 'gpt-4o-mini' });
 * await server.close();
 */
export interface ProviderServer {
  /** `http://127.0.0.1:<port>` (no trailing slash, no `/v1`). */
  readonly url: string;
  /** Every request received, in arrival order (including ones answered by a plan). */
  readonly requests: RecordedRequest[];
  /** Queues one planned response; plans are used once each, first in first out. */
  plan(response: PlannedResponse): void;
  /** Sets the default chat responder (used when no plan matches). Return the reply text. */
  respondWith(responder: (request: ProviderRequest) => string | Promise<string>): void;
  /** Sets the default embedder: one vector per `request.input` text. */
  embedWith(embed: (text: string, request: ProviderRequest) => number[]): void;
  /** Plans not yet used. */
  readonly pendingPlans: number;
  /** Forgets recorded requests and unused plans; restores the default responders. */
  reset(): void;
  /** Stops listening and destroys open connections (including hung ones). */
  close(): Promise<void>;
}

export interface RecordedRequest {
  method: string;
  /** Path without query, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body (`undefined` when empty or not JSON). */
  body: Record<string, unknown> | undefined;
}

export interface PlannedResponse {
  /** Only requests to this path take the plan (e.g. `/v1/embeddings`). Default: any path. */
  path?: string;
  /** HTTP status. Default 200. A status >= 400 without `body` sends the endpoint's real error body. */
  status?: number;
  /** Extra response headers, e.g. `{ 'retry-after': '1' }` or `{ 'retry-after-ms': '250' }`. */
  headers?: Record<string, string>;
  /** Exact body to send: an object (sent as JSON) or a raw string. Overrides everything below. */
  body?: unknown;
  /** Message inside a generated error body. */
  errorMessage?: string;
  /** For a 200 chat reply: the reply text (default: the default responder's). */
  text?: string;
  /** Never answer; the connection stays open until the client aborts or `close()`. */
  hang?: boolean;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer 200 with a JSON body cut in half. */
  malformedJson?: boolean;
  /** Chat reply truncated: `finish_reason: 'length'` / `stop_reason: 'max_tokens'`. */
  truncated?: boolean;
}
