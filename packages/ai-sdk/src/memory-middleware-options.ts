import { type MemoryEngine, type MemorySession, MemValidationError } from '@mem/core';
import { assertValidUserId } from '@mem/core/backend';
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
   * The user the conversation belongs to: a fixed id, or a function of the call's options like
   * `sessionId` (`undefined` from it: a call without a user). The session is bound to the user on
   * its first write: the user's other conversations are recalled into its context (profile
   * `knowledge_base.scope`), the user's facts join its prompt, and `engine.forgetUser(userId)`
   * erases it. A conversation stored for another user is refused (`MemValidationError`, field
   * `userId`). Omitted: conversations without a user.
   */
  userId?:
    | string
    | ((params: CallOptionsLike) => string | undefined | PromiseLike<string | undefined>);
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

/** A user id by the store's rules (1-512 characters of well-formed text, no control characters). */
function checkUserId(value: unknown, field: string): string {
  try {
    assertValidUserId(value, field);
    return value;
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^\[mem\/store\] /, '') : '';
    throw new MemValidationError(
      field,
      `${where}: ${field} must be the id of the user the conversation belongs to (1-512 characters of well-formed text, no control characters), got ${describe(value)}: ${why}.`,
      { cause: error },
    );
  }
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
  const { engine, sessionId, userId, changedHistory, streamIdleTimeoutMs } =
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
  const userOf = userResolver(userId);
  const open = (id: string, user: string | undefined) =>
    user === undefined ? engine.session(id) : engine.session(id, { userId: user });
  if (typeof sessionId === 'function') {
    return {
      ...checked,
      sessionOf: async (params) => {
        const id = checkId(await sessionId(params), 'sessionId (returned by the function)');
        return open(id, await userOf(params));
      },
    };
  }
  const id = checkId(sessionId, 'sessionId');
  return { ...checked, sessionOf: async (params) => open(id, await userOf(params)) };
}

/** The user of a call: none, a fixed one (checked now) or the function's (checked per call). */
function userResolver(userId: unknown): (params: CallOptionsLike) => Promise<string | undefined> {
  if (userId === undefined) return async () => undefined;
  if (typeof userId !== 'function') {
    const user = checkUserId(userId, 'userId');
    return async () => user;
  }
  return async (params) => {
    const user: unknown = await userId(params);
    return user === undefined ? undefined : checkUserId(user, 'userId (returned by the function)');
  };
}
