import { type MemoryEngine, type MemorySession, MemValidationError } from '@mem/core';
import type { CallOptionsLike } from './middleware-types.ts';
import type { ChangedHistory } from './store-prompt.ts';

export interface MemoryMiddlewareOptions {
  /** The mem engine that holds the conversations (`createMemoryEngine(...)`). */
  engine: MemoryEngine;
  /**
   * The conversation a call belongs to: a fixed id, or a function of the call's options (read
   * `headers` or `providerOptions` there to serve many conversations with one wrapped model).
   */
  sessionId: string | ((params: CallOptionsLike) => string | PromiseLike<string>);
  /**
   * A prompt that re-sends the history with an earlier message edited, regenerated or replaced:
   * `'replace'` (default) removes the stored messages from the first difference on and stores the
   * prompt's instead; `'error'` fails the call with a `MemValidationError` and changes nothing.
   */
  changedHistory?: ChangedHistory;
  /**
   * How long a streamed answer may wait for its reader (milliseconds, default 30 000) before the
   * session is released for the next call; the answer of a stream that waited that long is not
   * stored.
   */
  streamIdleTimeoutMs?: number;
}

/** The options, checked once, as the middleware uses them. */
export interface CheckedOptions {
  engine: MemoryEngine;
  sessionOf: (params: CallOptionsLike) => Promise<MemorySession>;
  changedHistory: ChangedHistory;
  streamIdleTimeoutMs: number;
}

const where = '[mem/ai-sdk] memoryMiddleware';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `"${value}"` : typeof value;
}

function checkId(value: unknown, field: string): string {
  if (typeof value === 'string' && value.trim().length > 0) return value;
  throw new MemValidationError(
    field,
    `${where}: ${field} must be a non-empty string (the conversation this call belongs to), got ${describe(value)}.`,
  );
}

function checkChangedHistory(value: unknown): ChangedHistory {
  if (value === undefined) return 'replace';
  if (value === 'replace' || value === 'error') return value;
  throw new MemValidationError(
    'changedHistory',
    `${where}: changedHistory must be 'replace' (replace the stored messages a re-sent history changed) or 'error' (refuse the call), got ${describe(value)}.`,
  );
}

function checkIdleTimeout(value: unknown): number {
  if (value === undefined) return 30_000;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new MemValidationError(
    'streamIdleTimeoutMs',
    `${where}: streamIdleTimeoutMs must be a whole number of milliseconds above 0 (default 30000), got ${typeof value === 'number' ? value : describe(value)}.`,
  );
}

/** Checks the options once: every field, before any call. */
export function checkOptions(options: MemoryMiddlewareOptions): CheckedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new MemValidationError(
      'options',
      `${where}: pass an options object: memoryMiddleware({ engine, sessionId }), got ${describe(options)}.`,
    );
  }
  const { engine, sessionId, changedHistory, streamIdleTimeoutMs } =
    options as Partial<MemoryMiddlewareOptions>;
  if (
    typeof engine !== 'object' ||
    engine === null ||
    typeof (engine as Partial<MemoryEngine>).session !== 'function'
  ) {
    throw new MemValidationError(
      'engine',
      `${where}: engine must be a mem engine: pass createMemoryEngine({ profile, store }) from @mem/core, got ${describe(engine)}.`,
    );
  }
  const checked = {
    engine,
    changedHistory: checkChangedHistory(changedHistory),
    streamIdleTimeoutMs: checkIdleTimeout(streamIdleTimeoutMs),
  };
  if (typeof sessionId === 'function') {
    return {
      ...checked,
      sessionOf: async (params) =>
        engine.session(checkId(await sessionId(params), 'sessionId (returned by the function)')),
    };
  }
  const id = checkId(sessionId, 'sessionId');
  return { ...checked, sessionOf: async () => engine.session(id) };
}
