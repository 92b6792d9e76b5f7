/**
 * Wire formats of the provider endpoints the fixture server speaks: reading a request body into a
 * `ProviderRequest`, and building success and error bodies exactly as OpenAI and Anthropic send them.
 */

export type ProviderApi = 'openai-chat' | 'openai-embeddings' | 'anthropic-messages';

/** A request as the default responder sees it, independent of the wire format. */
export interface ProviderRequest {
  api: ProviderApi;
  model: string;
  /** System prompt (OpenAI `system`/`developer` messages, Anthropic `system`), joined by blank lines. */
  system: string;
  /** Text of the last user message. */
  prompt: string;
  /** Anthropic only: text of a trailing assistant message (a prefill), else `''`. */
  prefill: string;
  /** OpenAI `response_format: {type: 'json_object' | 'json_schema'}` was requested. */
  json: boolean;
  /** `max_completion_tokens` ?? `max_tokens`, when sent. */
  maxTokens: number | undefined;
  temperature: number | undefined;
  /** Embeddings only: the input texts. */
  input: string[];
  /** Embeddings only: requested `dimensions`. */
  dimensions: number | undefined;
  /** The parsed JSON body as sent. */
  body: Record<string, unknown>;
}

type Json = Record<string, unknown>;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: Json) => (typeof part?.text === 'string' ? part.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** Reads the parsed body of a request to `api` into a `ProviderRequest`. */
export function readProviderRequest(api: ProviderApi, body: Json): ProviderRequest {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const systemParts: string[] = [];
  if (api === 'anthropic-messages' && body.system !== undefined)
    systemParts.push(textOf(body.system));
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') systemParts.push(textOf(m.content));
  }
  const users = messages.filter((m) => m.role === 'user');
  const last = messages.at(-1);
  const format = (body.response_format as Json | undefined)?.type;
  const rawInput = body.input;
  return {
    api,
    model: typeof body.model === 'string' ? body.model : '',
    system: systemParts.join('\n\n'),
    prompt: textOf(users.at(-1)?.content),
    prefill: api === 'anthropic-messages' && last?.role === 'assistant' ? textOf(last.content) : '',
    json: format === 'json_object' || format === 'json_schema',
    maxTokens: num(body.max_completion_tokens) ?? num(body.max_tokens),
    temperature: num(body.temperature),
    input:
      typeof rawInput === 'string'
        ? [rawInput]
        : Array.isArray(rawInput)
          ? rawInput.map(String)
          : [],
    dimensions: num(body.dimensions),
    body,
  };
}

/** Rough token count the fixture reports as usage: one token per 4 characters, at least 1. */
export function countTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

let sequence = 0;
const nextId = (prefix: string) => `${prefix}${(++sequence).toString().padStart(6, '0')}`;

/** A non-streaming chat reply in the request's dialect. */
export function chatBody(request: ProviderRequest, text: string, truncated: boolean): Json {
  const inputTokens = countTokens(request.system + request.prompt);
  const outputTokens = countTokens(text);
  if (request.api === 'anthropic-messages') {
    return {
      id: nextId('msg_fixture'),
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: [{ type: 'text', text }],
      stop_reason: truncated ? 'max_tokens' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: outputTokens },
    };
  }
  return {
    id: nextId('chatcmpl-fixture'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, refusal: null },
        logprobs: null,
        finish_reason: truncated ? 'length' : 'stop',
      },
    ],
    usage: {
      prompt_tokens: inputTokens,
      completion_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
    },
  };
}

/** An OpenAI embeddings reply; vectors as float arrays or, for `encoding_format: 'base64'`, little-endian float32. */
export function embeddingsBody(request: ProviderRequest, vectors: number[][]): Json {
  const base64 = request.body.encoding_format === 'base64';
  const tokens = request.input.reduce((sum, text) => sum + countTokens(text), 0);
  return {
    object: 'list',
    model: request.model,
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
    })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

const openAIErrorTypes: Record<number, [type: string, code: string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
  500: ['server_error', null],
  503: ['server_error', null],
};

const anthropicErrorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
  529: 'overloaded_error',
};

/** The error body OpenAI or Anthropic sends with `status`. */
export function errorBody(api: ProviderApi, status: number, message?: string): Json {
  const text = message ?? `fixture error ${status}`;
  if (api === 'anthropic-messages') {
    const type =
      anthropicErrorTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { type: 'error', error: { type, message: text } };
  }
  const [type, code] =
    openAIErrorTypes[status] ??
    (status >= 500 ? ['server_error', null] : ['invalid_request_error', null]);
  return { error: { message: text, type, param: null, code } };
}

/** A deterministic unit vector for `text` (a seeded hash), so equal texts embed equally. */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  let seed = 2166136261;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619);
  const vector: number[] = [];
  for (let i = 0; i < dimensions; i++) {
    seed = Math.imul(seed ^ (seed >>> 15), 2246822507) ^ i;
    vector.push(((seed >>> 0) / 0xffffffff) * 2 - 1);
  }
  const norm = Math.hypot(...vector) || 1;
  // Round through float32 so base64 and float replies decode to the same numbers.
  return vector.map((v) => Math.fround(v / norm));
}
