/**
 * How long one attempt lets SQLite itself wait for a lock (`PRAGMA busy_timeout`), in ms. That
 * wait blocks the thread, so it stays short; longer waits happen between attempts, on timers.
 */
export const SYNC_BUSY_MS = 10;
/** The longest pause between two attempts, in ms (pauses double from 1 ms up to it). */
const MAX_PAUSE_MS = 25;

/** True for SQLite's "database is locked" (`SQLITE_BUSY`, `SQLITE_BUSY_*`). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs synchronous SQLite attempts and, while one fails with `SQLITE_BUSY`, retries it on a
 * timer until `busyTimeoutMs` after the call: the event loop keeps running while another
 * connection holds the lock. A failed attempt changed nothing (its transaction rolled back), so
 * retrying it is safe.
 */
export interface LockWaiter {
  /**
   * Writes run in call order: while one waits for the lock, later writes queue behind it (an
   * uncontended write runs at once, with no extra hop).
   */
  write<R>(attempt: () => R): Promise<R>;
  /** Reads never queue (in WAL mode they rarely wait at all). */
  read<R>(attempt: () => R): Promise<R>;
}

interface Job {
  attempt: () => unknown;
  deadline: number;
  /** True when it already failed once with SQLITE_BUSY (so it pauses before the next try). */
  tried: boolean;
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

/** `fail` turns the last error (busy or not) into the error the call rejects with. */
export function createLockWaiter(
  busyTimeoutMs: number,
  fail: (error: unknown) => Error,
): LockWaiter {
  const queue: Job[] = [];

  /** Attempts `job` until it succeeds, fails otherwise, or is still busy at its deadline. */
  const settle = async (job: Job): Promise<void> => {
    let pause = 1;
    for (let tried = job.tried; ; tried = true) {
      if (tried) {
        await sleep(Math.max(1, Math.min(pause, job.deadline - performance.now())));
        pause = Math.min(2 * pause, MAX_PAUSE_MS);
      }
      try {
        job.resolve(job.attempt() as never);
        return;
      } catch (error) {
        if (!isBusy(error) || job.deadline <= performance.now()) {
          job.reject(fail(error));
          return;
        }
      }
    }
  };
  const drain = async (): Promise<void> => {
    while (queue.length > 0) {
      await settle(queue[0] as Job);
      queue.shift();
    }
  };
  const enqueue = <R>(attempt: () => R, deadline: number, tried: boolean): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      queue.push({ attempt, deadline, tried, resolve, reject });
      if (queue.length === 1) void drain();
    });

  return {
    write: (attempt) => {
      const deadline = performance.now() + busyTimeoutMs;
      if (queue.length > 0) return enqueue(attempt, deadline, false);
      try {
        return Promise.resolve(attempt());
      } catch (error) {
        if (!isBusy(error) || busyTimeoutMs === 0) return Promise.reject(fail(error));
        return enqueue(attempt, deadline, true);
      }
    },
    read: (attempt) => {
      const deadline = performance.now() + busyTimeoutMs;
      try {
        return Promise.resolve(attempt());
      } catch (error) {
        if (!isBusy(error) || busyTimeoutMs === 0) return Promise.reject(fail(error));
        return new Promise((resolve, reject) => {
          void settle({ attempt, deadline, tried: true, resolve, reject });
        });
      }
    },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
