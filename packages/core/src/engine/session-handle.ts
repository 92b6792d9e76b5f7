import { MemValidationError } from '../errors/errors.ts';
import type { Store } from '../store/store-spec.ts';
import { assertValidUserId } from '../store/validate-ids.ts';
import type { MemorySession } from './memory-session.ts';
import { otherUser, type SessionState } from './session-state.ts';

/** A cached session: its state and the session over it. */
export interface CachedSession {
  state: SessionState;
  session: MemorySession;
}

/** `engine.session()`'s options checked: the user id, if any. */
export function sessionUser(options: unknown): string | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new MemValidationError(
      'options',
      '[mem/core] engine.session(id, options) takes { userId? }, e.g. { userId: "user-42" }.',
    );
  }
  const { userId } = options as { userId?: unknown };
  if (userId !== undefined) assertValidUserId(userId);
  return userId;
}

/**
 * A session handle whose every call goes to the session `current()` returns. A handle with a
 * user first makes sure the session is that user's: the store's binding is read once per state
 * (`checkUser`), and a session of another user rejects the call (`MemValidationError`, field
 * `userId`). `userId`: the handle's, else the session's.
 */
export function forwarding(
  id: string,
  userId: string | undefined,
  current: () => CachedSession,
  store: Store,
): MemorySession {
  const call = <T>(run: (session: MemorySession) => Promise<T>): Promise<T> => {
    try {
      const { state, session } = current();
      if (userId === undefined) return run(session);
      const mine = () => {
        if (state.userId !== userId) throw otherUser(id);
        return run(session);
      };
      return state.userChecked ? mine() : state.checkUser(store).then(mine);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return {
    id,
    get userId() {
      return userId ?? current().state.userId;
    },
    append: (messages, options) => call((s) => s.append(messages, options)),
    context: (options) => call((s) => s.context(options)),
    messages: (options) => call((s) => s.messages(options)),
    history: () => call((s) => s.history()),
    summaries: () => call((s) => s.summaries()),
    compact: (options) => call((s) => s.compact(options)),
    summarizeNow: (options) => call((s) => s.summarizeNow(options)),
    idle: () => call((s) => s.idle()),
    pop: () => call((s) => s.pop()),
    clear: () => call((s) => s.clear()),
  };
}
