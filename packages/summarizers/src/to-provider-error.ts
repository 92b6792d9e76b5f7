import { ProviderError, type ProviderErrorKind } from './provider-error.ts';
import { type HeadersLike, parseRetryAfterMs } from './retry-after.ts';

/** The fields the openai, @anthropic-ai/sdk and AI SDK errors carry, read without importing them. */
interface SdkErrorShape {
  name?: unknown;
  message?: unknown;
  /** openai / @anthropic-ai/sdk `APIError`. */
  status?: unknown;
  headers?: unknown;
  /** AI SDK `APICallError`. */
  statusCode?: unknown;
  responseHeaders?: unknown;
  isRetryable?: unknown;
  code?: unknown;
  cause?: unknown;
}

const abortNames = new Set(['AbortError', 'APIUserAbortError']);
const timeoutNames = new Set(['APIConnectionTimeoutError']);
const networkNames = new Set(['APIConnectionError', 'FetchError']);
const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ETIMEDOUT',
]);

function nameOf(error: SdkErrorShape): string {
  const ctor = (error as { constructor?: { name?: unknown } }).constructor?.name;
  // openai's errors keep `name` = 'Error'; the class name is the useful one.
  return typeof ctor === 'string' && ctor !== 'Error' && ctor !== 'Object'
    ? ctor
    : String(error.name);
}

function kindOfStatus(status: number): ProviderErrorKind {
  if (status >= 200 && status < 300) return 'malformed-response';
  if (status === 429) return 'rate-limited';
  if (status === 503 || status === 529) return 'overloaded';
  if (status >= 500) return 'server';
  if (status === 408) return 'timeout';
  if (status === 409) return 'conflict';
  if (status === 401 || status === 403) return 'auth';
  return 'invalid-request';
}

function kindOf(
  error: SdkErrorShape,
  status: number | undefined,
  aborted: boolean,
): ProviderErrorKind {
  if (aborted) return 'aborted';
  const name = nameOf(error);
  if (abortNames.has(name) || abortNames.has(String(error.name))) return 'aborted';
  if (status !== undefined) return kindOfStatus(status);
  if (timeoutNames.has(name)) return 'timeout';
  if (error instanceof SyntaxError || name === 'AI_JSONParseError') return 'malformed-response';
  if (networkNames.has(name) || networkCodes.has(String(error.code))) return 'network';
  // AI SDK: a fetch failure is an APICallError without a status, marked retryable.
  if (name === 'APICallError' && error.isRetryable === true) return 'network';
  return 'unknown';
}

const retryableKinds = new Set<ProviderErrorKind>([
  'rate-limited',
  'overloaded',
  'server',
  'timeout',
  'conflict',
  'network',
  'malformed-response',
]);

/**
 * Turns whatever a provider SDK threw into a `ProviderError`. `signal`: the request's signal; when it
 * has fired, the error is an abort whatever the SDK made of it. A `ProviderError` passes through.
 */
export function toProviderError(
  provider: string,
  error: unknown,
  signal?: AbortSignal,
): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const shape: SdkErrorShape = typeof error === 'object' && error !== null ? error : {};
  const rawStatus = typeof shape.status === 'number' ? shape.status : shape.statusCode;
  const status = typeof rawStatus === 'number' ? rawStatus : undefined;
  const aborted = signal?.aborted === true;
  const kind = kindOf(shape, status, aborted);
  const headers = (shape.headers ?? shape.responseHeaders) as HeadersLike | undefined;
  const headersOk = typeof headers === 'object' && headers !== null;
  const message = typeof shape.message === 'string' ? shape.message : String(error);
  const detail =
    kind === 'aborted' && aborted
      ? `aborted (${signal?.reason instanceof Error ? signal.reason.message : String(signal?.reason)})`
      : message;
  return new ProviderError(
    {
      kind,
      provider,
      detail,
      status,
      retryAfterMs: headersOk ? parseRetryAfterMs(headers) : undefined,
      retryable: retryableKinds.has(kind),
    },
    { cause: error },
  );
}
