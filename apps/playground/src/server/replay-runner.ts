/**
 * Runs replays in a worker thread (replay-worker.ts), so the server's request thread stays free:
 * `GET /api/config` answers at once while a 10,000-turn replay runs. The worker keeps the last
 * replayed thread for `/api/turn`, `/api/ask` and the chat. A replay is stopped when its client
 * goes away (`signal`), when it runs past `timeLimitMs`, or when the worker's heap passes
 * `memoryLimitMb`: first by asking (the worker stops before its next turn and closes its store),
 * then, if a single turn does not end within a few seconds, by terminating the worker (a new one
 * starts on demand).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { NO_REPLAY_TO_ASK } from './ask-question.ts';
import { HttpError } from './http-json.ts';
import type { ReplayLimits } from './replay-limits.ts';
import type { WorkerOp, WorkerReply } from './replay-worker-protocol.ts';

const BOOT = new URL('./replay-worker-boot.mjs', import.meta.url);
/** How long a replay asked to stop may take to reach its next turn before the worker is ended. */
const STOP_GRACE_MS = 3_000;

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Ended by the runner or by V8 (out of memory); the worker's memory thread is gone. */
class WorkerGone extends Error {
  constructor(readonly outOfMemory: boolean) {
    super(outOfMemory ? 'the replay worker ran out of memory' : 'the replay worker was stopped');
  }
}

export type ReplayArgs = {
  profile: unknown;
  store: string;
  redisUrl?: string;
  conversation: 'bundled' | 'generated';
  turns: number;
  /** Replays each session as its own mem session of this user. */
  userId?: string;
};

/**
 * `dataDir`: where each worker makes its temporary directory for the SQLite files
 * (`<dataDir>/mem-playground-worker-*`, removed when the worker ends). Default: the OS's temp dir.
 */
export function createReplayRunner(limits: ReplayLimits, dataDir: string = tmpdir()) {
  const stop = new SharedArrayBuffer(4);
  const stopCell = new Int32Array(stop);
  const pending = new Map<number, Pending>();
  let worker: Worker | undefined;
  let nextId = 0;
  let nextSeq = 0;
  let closed = false;

  const start = (): Worker => {
    // The worker's SQLite files live here; removed when the worker ends, even when it was
    // terminated mid-turn and could not close its store.
    const tempRoot = mkdtempSync(join(dataDir, 'mem-playground-worker-'));
    const w = new Worker(BOOT, {
      workerData: { stop, tempRoot },
      execArgv: ['--conditions=@mem/source'],
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryLimitMb },
    });
    w.unref();
    w.on('message', (reply: WorkerReply) => {
      const waiting = pending.get(reply.id);
      if (waiting === undefined) return;
      pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(reply.error);
    });
    let outOfMemory = false;
    w.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') outOfMemory = true;
      else failAll(error);
    });
    w.on('exit', () => {
      rmSync(tempRoot, { recursive: true, force: true });
      if (worker === w) worker = undefined;
      failAll(new WorkerGone(outOfMemory));
    });
    return w;
  };

  const failAll = (error: unknown) => {
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };

  const call = <T>(op: WorkerOp, args: unknown): Promise<T> => {
    if (closed && op !== 'close') {
      return Promise.reject(new HttpError(503, 'The playground server is shutting down.'));
    }
    worker ??= start();
    const id = ++nextId;
    const promise = new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    });
    worker.postMessage({ id, op, args });
    return promise.catch((error: unknown) => {
      if (error instanceof Error) throw error;
      throw toError(error as Extract<WorkerReply, { ok: false }>['error']);
    });
  };

  return {
    /** Runs a replay. @throws HttpError 422 past a limit, 499 when `signal` aborted it. */
    async replay<T>(args: ReplayArgs, signal: AbortSignal): Promise<T> {
      const seq = ++nextSeq;
      let why: 'client' | 'time' | undefined;
      let grace: NodeJS.Timeout | undefined;
      const requestStop = (reason: 'client' | 'time') => {
        why ??= reason;
        Atomics.store(stopCell, 0, seq);
        const w = worker;
        grace ??= setTimeout(() => void w?.terminate(), STOP_GRACE_MS);
      };
      const onAbort = () => requestStop('client');
      signal.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => requestStop('time'), limits.timeLimitMs);
      try {
        return await call<T>('replay', { ...args, seq });
      } catch (error) {
        throw stopped(error, why, limits) ?? error;
      } finally {
        clearTimeout(timer);
        clearTimeout(grace);
        signal.removeEventListener('abort', onAbort);
      }
    },
    turn: <T>(index: number, query: string) => call<T>('turn', { index, query }),
    /** The context for a question after the last replay; 409 without one (no worker is started). */
    ask<T>(question: string): Promise<T> {
      if (worker === undefined && !closed)
        return Promise.reject(new HttpError(409, NO_REPLAY_TO_ASK));
      return call<T>('ask', { question });
    },
    beginTurn: <T>(message: string) => call<T>('beginTurn', { message }),
    /** The last replay's user's facts; 409 without a replay (no worker is started). */
    facts<T>(): Promise<T> {
      if (worker === undefined && !closed)
        return Promise.reject(new HttpError(409, NO_REPLAY_TO_ASK));
      return call<T>('facts', {});
    },
    /** Forgets the last replay's user; 409 without a replay (no worker is started). */
    forget<T>(user: string): Promise<T> {
      if (worker === undefined && !closed)
        return Promise.reject(new HttpError(409, NO_REPLAY_TO_ASK));
      return call<T>('forget', { user });
    },
    endTurn: <T>(replies: unknown[]) => call<T>('endTurn', { replies }),
    /** Stops a running replay, closes the worker's memory thread, then ends the worker. */
    async close(): Promise<void> {
      closed = true;
      Atomics.store(stopCell, 0, nextSeq);
      const w = worker;
      if (w === undefined) return;
      const threadClosed = call('close', {}).catch(() => undefined);
      const timeout = new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
      await Promise.race([threadClosed, timeout]);
      await w.terminate();
    },
  };
}

export type ReplayRunner = ReturnType<typeof createReplayRunner>;

function toError(error: Extract<WorkerReply, { ok: false }>['error']): Error {
  if (error.kind === 'http') return new HttpError(error.status, error.message, error.extra);
  if (error.kind === 'stopped') return Object.assign(new Error(error.message), { stopped: error });
  const e = new Error(error.message);
  e.stack = error.stack;
  return e;
}

/** The answer for a replay that was stopped or ran out of memory; undefined for other errors. */
function stopped(
  error: unknown,
  why: 'client' | 'time' | undefined,
  limits: ReplayLimits,
): Error | undefined {
  const progress = (error as { stopped?: { done: number; total: number } }).stopped;
  const at =
    progress === undefined || progress.total === 0
      ? ''
      : ` at turn ${progress.done.toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')}`;
  if (error instanceof WorkerGone && error.outOfMemory) {
    return new HttpError(
      422,
      `The replay was stopped: it needed more than the playground's limit of ${limits.memoryLimitMb} MB of memory. Replay fewer turns, or a profile that indexes less (a larger chunk_size, a higher interaction_threshold_qty).`,
      { limit: 'memory', memoryLimitMb: limits.memoryLimitMb },
    );
  }
  if (why === 'time' && (progress !== undefined || error instanceof WorkerGone)) {
    const seconds = Math.round(limits.timeLimitMs / 1000);
    return new HttpError(
      422,
      `The replay was stopped${at}: it ran past the playground's limit of ${seconds} s per replay. Replay fewer turns, or a profile with a short-term window (max_tokens) so each turn costs less.`,
      { limit: 'time', timeLimitMs: limits.timeLimitMs },
    );
  }
  if (why === 'client' && (progress !== undefined || error instanceof WorkerGone)) {
    return new HttpError(499, `The replay was cancelled${at}: the client went away.`);
  }
  return undefined;
}
