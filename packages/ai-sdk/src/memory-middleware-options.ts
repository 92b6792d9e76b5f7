import { type MemoryEngine, type MemorySession, MemValidationError } from '@mem/core';
import type { CallOptionsLike } from './middleware-types.ts';

export interface MemoryMiddlewareOptions {
  /** The mem engine that holds the conversations (`createMemoryEngine(...)`). */
  engine: MemoryEngine;
  /**
   * The conversation a call belongs to: a fixed id, or a function of the call's options (read
   * `headers` or `providerOptions` there to serve many conversations with one wrapped model).
   */
  sessionId: string | ((params: CallOptionsLike) => string | PromiseLike<string>);
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

/** Checks the options once and returns how each call finds its session. */
export function sessionResolver(
  options: MemoryMiddlewareOptions,
): (params: CallOptionsLike) => Promise<MemorySession> {
  if (typeof options !== 'object' || options === null) {
    throw new MemValidationError(
      'options',
      `${where}: pass an options object: memoryMiddleware({ engine, sessionId }), got ${describe(options)}.`,
    );
  }
  const { engine, sessionId } = options as Partial<MemoryMiddlewareOptions>;
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
  if (typeof sessionId === 'function') {
    return async (params) =>
      engine.session(checkId(await sessionId(params), 'sessionId (returned by the function)'));
  }
  const id = checkId(sessionId, 'sessionId');
  return async () => engine.session(id);
}
