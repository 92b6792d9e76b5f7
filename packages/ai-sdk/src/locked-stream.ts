import { createStreamCollector, type StreamOutcome } from './collect-stream.ts';
import type { SessionLease } from './session-lock.ts';

export interface LockedStreamOptions {
  /** The session's lock, held until the stream ends, errors, is cancelled or goes unread. */
  lease: SessionLease | undefined;
  /** The call's abort signal: once aborted, nothing of the answer is stored. */
  signal: AbortSignal | undefined;
  /** How long the stream may wait for its reader before the lock is given up. */
  idleTimeoutMs: number;
  /** Stores the answer of a stream that finished without error. */
  store: (outcome: StreamOutcome) => Promise<void>;
}

/**
 * Passes a model's stream parts through unchanged, one per read (nothing is read ahead of the
 * reader), and stores the answer when the stream has ended with a `finish` part and no `error`
 * part, before the stream closes (so an error storing it reaches the reader). The session's lock
 * is released on every way out: the end, an error, a cancel, an abort, and a reader that stops
 * asking for parts for `idleTimeoutMs` (the AI SDK 7 does not cancel the model's stream when its
 * consumer cancels, and a stream nobody reads would hold the session forever). A stream whose
 * lock was given up stores nothing of its answer, since other calls may have stored theirs since.
 */
export function lockedStream(
  upstream: ReadableStream<unknown>,
  options: LockedStreamOptions,
): ReadableStream<unknown> {
  const { lease, signal, idleTimeoutMs, store } = options;
  const reader = upstream.getReader();
  const collector = createStreamCollector();
  let storable = true;
  let idle: ReturnType<typeof setTimeout> | undefined;

  const release = () => {
    clearTimeout(idle);
    signal?.removeEventListener('abort', giveUp);
    lease?.release();
  };
  function giveUp() {
    storable = false;
    release();
  }
  const awaitReader = () => {
    clearTimeout(idle);
    if (!storable) return;
    idle = setTimeout(giveUp, idleTimeoutMs);
    // A stream left unread must not keep the process alive.
    if (typeof idle === 'object' && typeof idle.unref === 'function') idle.unref();
  };

  if (signal?.aborted === true) giveUp();
  else signal?.addEventListener('abort', giveUp, { once: true });

  return new ReadableStream<unknown>(
    {
      async pull(controller) {
        clearTimeout(idle);
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (error) {
          giveUp();
          throw error;
        }
        if (next.done) {
          try {
            const outcome = collector.outcome();
            if (storable && outcome !== undefined && signal?.aborted !== true) await store(outcome);
          } finally {
            release();
          }
          controller.close();
          return;
        }
        collector.add(next.value);
        controller.enqueue(next.value);
        awaitReader();
      },
      async cancel(reason) {
        giveUp();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
