import { MemError, type MemErrorOptions, MemValidationError } from '@mem/core';

/** Why a call's prompt could not be stored without putting messages out of order. */
export type HistoryConflictReason = 'interleaved-step' | 'concurrent-write';

/**
 * The session changed in a way that storing this call's messages would put them out of order,
 * and nothing was stored for it. `interleaved-step`: another call's turn was stored between two
 * steps of a tool loop. `concurrent-write`: another writer (another process, or your own
 * `session.append`) changed the messages the middleware was replacing. Its code is
 * `MEM_STORE_CONFLICT`, as for the store's own compare-and-swap conflicts.
 */
export class MemHistoryConflictError extends MemError {
  readonly sessionId: string;
  readonly reason: HistoryConflictReason;

  constructor(
    init: { sessionId: string; reason: HistoryConflictReason; message: string },
    options: MemErrorOptions = {},
  ) {
    super('MEM_STORE_CONFLICT', init.message, options);
    this.name = 'MemHistoryConflictError';
    this.sessionId = init.sessionId;
    this.reason = init.reason;
  }
}

const where = '[mem/ai-sdk] memoryMiddleware';
const session = (id: string) => `session ${JSON.stringify(id)}`;

export function interleavedStep(sessionId: string): MemHistoryConflictError {
  return new MemHistoryConflictError({
    sessionId,
    reason: 'interleaved-step',
    message:
      `${where}: another call's turn was stored in ${session(sessionId)} between two steps of ` +
      "this tool loop, so this step's tool results would land after it, out of order; nothing " +
      'of this step was stored. Give concurrent tool loops their own sessionId, or wait for a ' +
      "session's tool loop to finish before starting another call on it.",
  });
}

export function concurrentWrite(sessionId: string, detail: string): MemHistoryConflictError {
  return new MemHistoryConflictError({
    sessionId,
    reason: 'concurrent-write',
    message:
      `${where}: ${session(sessionId)} changed while this call replaced its changed messages ` +
      `(${detail}); nothing of the other writer's was lost and this call stored nothing. Retry ` +
      'the call; serialize calls on one session across processes.',
  });
}

const advice =
  'Send only the new messages (the session keeps the history), or start a new sessionId for ' +
  'the changed conversation.';

/** The prompt changes stored history in a way the middleware refuses to apply. */
export function changedHistoryRefused(reason: string): MemValidationError {
  return new MemValidationError('prompt', `${where}: ${reason} ${advice}`);
}
