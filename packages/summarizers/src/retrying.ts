import { z } from 'zod';
import { parseOptions } from './parse-options.ts';
import { ProviderError } from './provider-error.ts';

export interface RetryEvent {
  /** 1 for the first retry. */
  attempt: number;
  /** How long it waits before that retry. */
  delayMs: number;
  /** What failed. */
  error: ProviderError;
}

export interface RetryOptions {
  /** Retries after the first attempt (default 4, so at most 5 requests). */
  maxRetries?: number;
  /** Backoff before retry n is a random wait in [0, min(maxDelayMs, baseDelayMs * factor^(n-1))). Default 500. */
  baseDelayMs?: number;
  /** Default 2. */
  factor?: number;
  /** Default 20 000. */
  maxDelayMs?: number;
  /**
   * The longest `retry-after` honoured (default 60 000). The wait is at least what the provider
   * asked for; when it asks for more than this, the error is thrown at once instead.
   */
  maxRetryAfterMs?: number;
  /** Called before each backoff wait: log it, count it. */
  onRetry?: (event: RetryEvent) => void;
}

const optionsSchema = z.object({
  maxRetries: z.int().min(0).optional(),
  baseDelayMs: z.number().min(0).optional(),
  factor: z.number().min(1).optional(),
  maxDelayMs: z.number().min(0).optional(),
  maxRetryAfterMs: z.number().min(0).optional(),
  onRetry: z
    .custom<RetryOptions['onRetry']>((v) => typeof v === 'function', 'expected a function')
    .optional(),
});

export type RetryPolicy = Required<Omit<RetryOptions, 'onRetry'>> & Pick<RetryOptions, 'onRetry'>;

/** Checks `options` (a `MemConfigError` lists every bad one) and fills in the defaults. */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  const o = parseOptions(optionsSchema, options, 'retry options');
  return {
    maxRetries: o.maxRetries ?? 4,
    baseDelayMs: o.baseDelayMs ?? 500,
    factor: o.factor ?? 2,
    maxDelayMs: o.maxDelayMs ?? 20_000,
    maxRetryAfterMs: o.maxRetryAfterMs ?? 60_000,
    ...(o.onRetry === undefined ? {} : { onRetry: o.onRetry }),
  };
}

/** Full-jitter backoff for retry `attempt` (1-based), never shorter than the provider asked. */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * policy.factor ** (attempt - 1));
  const jitter = Math.random() * ceiling;
  return retryAfterMs === undefined ? jitter : Math.max(retryAfterMs, jitter);
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** Waits `ms`; rejects at once with the abort reason when `signal` fires. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `call` until it succeeds, retrying `ProviderError`s marked `retryable` with full-jitter
 * exponential backoff. Rethrows at once: non-retryable and non-`ProviderError` errors, a
 * `retryAfterMs` above `maxRetryAfterMs`, and the last error once `maxRetries` retries failed.
 * An abort of `signal` during a wait rejects at once with the signal's reason.
 */
export async function retrying<T>(
  call: () => Promise<T>,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!ProviderError.isInstance(error) || !error.retryable || attempt > policy.maxRetries) {
        throw error;
      }
      if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs)
        throw error;
      if (signal?.aborted) throw abortReason(signal);
      const delayMs = retryDelayMs(policy, attempt, error.retryAfterMs);
      policy.onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs, signal);
    }
  }
}
