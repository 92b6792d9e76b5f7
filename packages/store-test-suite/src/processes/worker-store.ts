import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Store } from '@mem/core/backend';
import { spawnWorker, type Worker } from './child-workers.ts';

/**
 * What the crash and multi-process tests need from a backend. The worker processes are the
 * suite's own scripts; each opens its store through `workerStore`, a module of the backend that
 * exports `openWorkerStore(place)`.
 */
export interface ProcessTestBackend {
  /** Names the backend in log lines (`[<tag> crash] seed ...`). */
  tag: string;
  /** A module exporting `openWorkerStore(place: string): Store` (the store of a worker process). */
  workerStore: URL;
  /** Opens a store on `place` in the test process, with the settings the workers use. */
  openStore: (place: string) => Store;
  /** A place no other test uses (a database file, a target and key prefix); called in the test. */
  place: () => string;
}

/** The shape of `ProcessTestBackend.workerStore`. */
export interface WorkerStoreModule {
  openWorkerStore(place: string): Store;
}

/**
 * The store of a worker script, opened from its argv (`<worker-store module> <place> ...`)
 * through the backend's module; `args` are the script's own arguments after those two.
 */
export async function workerStoreFromArgv(): Promise<{ store: Store; args: string[] }> {
  const [file, place, ...args] = process.argv.slice(2) as [string, string, ...string[]];
  const module = (await import(pathToFileURL(file).href)) as WorkerStoreModule;
  return { store: module.openWorkerStore(place), args };
}

// The worker scripts ship as source (`src/processes/workers`) in the published package too, so
// they are found from the package root whether this file runs from src or from dist.
const packageRoot = dirname(
  createRequire(import.meta.url).resolve('@mem/store-test-suite/package.json'),
);

const workerScript = (
  name: 'turn-writer.ts' | 'compactor.ts' | 'flush-writer.ts' | 'user-forgetter.ts',
): URL => pathToFileURL(join(packageRoot, 'src', 'processes', 'workers', name));

/** Starts a turn writer on `place` (protocol: workers/turn-writer.ts); `turns` may be 'forever'. */
export function spawnTurnWriter(
  backend: ProcessTestBackend,
  place: string,
  sessionId: string,
  writer: string,
  turns: number | 'forever',
): Worker {
  return spawnWorker(workerScript('turn-writer.ts'), [
    fileURLToPath(backend.workerStore),
    place,
    sessionId,
    writer,
    '0',
    String(turns),
  ]);
}

/** Starts a FLUSH engine writing turns on `place` (protocol: workers/flush-writer.ts). */
export function spawnFlushWriter(
  backend: ProcessTestBackend,
  place: string,
  sessionId: string,
  writer: string,
  mode: 'stall' | 'run',
): Worker {
  return spawnWorker(workerScript('flush-writer.ts'), [
    fileURLToPath(backend.workerStore),
    place,
    sessionId,
    writer,
    mode,
  ]);
}

/** Starts a compactor on `place` (protocol: runCompactionLoop). */
export function spawnCompactor(
  backend: ProcessTestBackend,
  place: string,
  sessionId: string,
  pauseMs: number,
  keepInteractions: number,
): Worker {
  return spawnWorker(workerScript('compactor.ts'), [
    fileURLToPath(backend.workerStore),
    place,
    sessionId,
    String(pauseMs),
    String(keepInteractions),
  ]);
}

/**
 * Starts a user forgetter on `place` (protocol: workers/user-forgetter.ts): it gives `user` and
 * `other` their sessions and facts, then forgets `user` on `go`.
 */
export function spawnUserForgetter(
  backend: ProcessTestBackend,
  place: string,
  user: { id: string; sessions: number },
  other: { id: string; sessions: number },
): Worker {
  return spawnWorker(workerScript('user-forgetter.ts'), [
    fileURLToPath(backend.workerStore),
    place,
    user.id,
    String(user.sessions),
    other.id,
    String(other.sessions),
  ]);
}
