import { MemSummarizerError } from '@mem/core';

const marker = Symbol.for('mem.summarizers.provider-error');

/**
 * Why a provider call failed. Stable strings, never renamed once published: branch on these (or
 * on `retryable`), not on messages.
 */
export type ProviderErrorKind =
  /** 429: too many requests or tokens. Retryable; honour `retryAfterMs`. */
  | 'rate-limited'
  /** 503 or Anthropic's 529: the provider is overloaded. Retryable. */
  | 'overloaded'
  /** Another 5xx. Retryable. */
  | 'server'
  /** 408, or the SDK's own request timeout. Retryable. */
  | 'timeout'
  /** 409: a conflicting concurrent request. Retryable. */
  | 'conflict'
  /** No HTTP answer: connection refused or reset, DNS. Retryable. */
  | 'network'
  /** A 200 whose body is not the JSON the SDK expects (cut off by a proxy, or not that API). Retryable. */
  | 'malformed-response'
  /** 401 or 403: wrong or missing API key, no access to the model. Not retryable. */
  | 'auth'
  /** Another 4xx: bad model name, bad parameters, prompt too long. Not retryable. */
  | 'invalid-request'
  /** The request's AbortSignal fired (deadline or caller). Not retryable. */
  | 'aborted'
  /** Anything else the SDK threw. Not retryable. */
  | 'unknown';

export interface ProviderErrorInit {
  kind: ProviderErrorKind;
  /** `openai`, `anthropic`, `ai-sdk`. */
  provider: string;
  /** The SDK's own message, quoted in ours. */
  detail: string;
  status?: number | undefined;
  retryAfterMs?: number | undefined;
  retryable: boolean;
}

const advice: Record<ProviderErrorKind, string> = {
  'rate-limited':
    'The provider is rate limiting: wrap the model in withRetries() (it waits retryAfterMs) or lower the request rate.',
  overloaded: 'The provider is overloaded; this is transient, withRetries() retries it.',
  server: 'The provider failed; this is usually transient, withRetries() retries it.',
  timeout: 'The request timed out; withRetries() retries it, or raise the client timeout.',
  conflict: 'The request conflicted with another one; withRetries() retries it.',
  network:
    'No answer from the provider: check the client baseURL and the network; withRetries() retries it.',
  'malformed-response':
    'The reply was not valid JSON (truncated or from a non-compatible server); withRetries() retries it. If it persists, check that baseURL points at an OpenAI- or Anthropic-compatible API.',
  auth: 'Check the API key given to the SDK client and that it may use this model.',
  'invalid-request':
    'Check the model name and request options (maxOutputTokens, JSON mode) against the provider docs; retrying will not help.',
  aborted:
    'The request was aborted by its AbortSignal (deadline or caller); raise the deadline if this is unexpected.',
  unknown: 'See `cause` for the SDK error.',
};

/**
 * One error for every provider failure, whatever the SDK. A `MemSummarizerError` (code
 * `MEM_SUMMARIZER`), so core's summarizer runner treats it like any summarizer failure; embedders
 * throw it too. Check with `ProviderError.isInstance(e)`, which works across package copies.
 */
export class ProviderError extends MemSummarizerError {
  readonly [marker] = true;
  readonly kind: ProviderErrorKind;
  readonly provider: string;
  /** HTTP status, when the provider answered. */
  readonly status: number | undefined;
  /** How long the provider asked to wait (`retry-after-ms`, or `retry-after` seconds or date). */
  readonly retryAfterMs: number | undefined;
  /** Worth retrying: 408, 409, 429, 5xx, 529, network, malformed reply. Never aborts or other 4xx. */
  readonly retryable: boolean;

  constructor(init: ProviderErrorInit, options: { cause?: unknown } = {}) {
    const status = init.status === undefined ? '' : ` with HTTP ${init.status}`;
    super(
      `[mem/summarizers] ${init.provider} request failed${status} (${init.kind}): ${init.detail}. ${advice[init.kind]}`,
      options,
    );
    this.name = 'ProviderError';
    this.kind = init.kind;
    this.provider = init.provider;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.retryable = init.retryable;
  }

  static override isInstance(error: unknown): error is ProviderError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
