/*
 * Overlapping calls on one session run one after another: each call holds its session's lock
 * from the moment it reads the stored conversation until its answer is stored (or the call
 * fails, is aborted, or its stream ends). The lock is in-process only; it keys on the engine
 * object and the session id, so every middleware over one engine shares it, and different
 * sessions never wait for each other.
 */

/** A held lock. `release` is idempotent: call it on every path. */
export interface SessionLease {
  release(): void;
  readonly released: boolean;
}

interface Queue {
  /** Callers waiting for the lock, oldest first. */
  waiting: Array<() => void>;
}

const queues = new WeakMap<object, Map<string, Queue>>();

function queuesOf(owner: object): Map<string, Queue> {
  let byId = queues.get(owner);
  if (byId === undefined) {
    byId = new Map();
    queues.set(owner, byId);
  }
  return byId;
}

function lease(byId: Map<string, Queue>, id: string, queue: Queue): SessionLease {
  let released = false;
  return {
    get released() {
      return released;
    },
    release() {
      if (released) return;
      released = true;
      const next = queue.waiting.shift();
      if (next !== undefined) next();
      else byId.delete(id);
    },
  };
}

function abortReason(signal: AbortSignal): unknown {
  return (
    signal.reason ?? new Error('[mem/ai-sdk] the call was aborted while waiting for its turn.')
  );
}

/**
 * Waits until no other call holds the lock of session `id` on `owner` (the engine), then holds
 * it. Waiters are served first come, first served. An aborted `signal` stops the wait with the
 * signal's reason and leaves the queue as if the call had never come.
 */
export function acquireSessionLock(
  owner: object,
  id: string,
  signal?: AbortSignal,
): Promise<SessionLease> {
  const byId = queuesOf(owner);
  const queue = byId.get(id);
  if (signal?.aborted === true) return Promise.reject(abortReason(signal));
  if (queue === undefined) {
    const fresh: Queue = { waiting: [] };
    byId.set(id, fresh);
    return Promise.resolve(lease(byId, id, fresh));
  }
  return new Promise<SessionLease>((resolve, reject) => {
    const onAbort = () => {
      const at = queue.waiting.indexOf(grant);
      if (at >= 0) queue.waiting.splice(at, 1);
      reject(abortReason(signal as AbortSignal));
    };
    const grant = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(lease(byId, id, queue));
    };
    queue.waiting.push(grant);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** How many calls hold or wait for the lock of session `id` (0 when it is free). For tests. */
export function sessionLockLoad(owner: object, id: string): number {
  const queue = queues.get(owner)?.get(id);
  return queue === undefined ? 0 : 1 + queue.waiting.length;
}
