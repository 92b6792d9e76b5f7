import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

/*
 * Spawns the TypeScript worker scripts of the multi-process and crash tests as OS processes
 * (`node --conditions=@mem/source --import <tsx>`) and keeps track of them, so a test file can
 * SIGKILL every one still running in afterAll, even after a failure.
 */
// Worker scripts are paths relative to the backend package running the tests (its cwd); tsx is
// resolved from there, walking up to the workspace root.
const tsxLoader = pathToFileURL(
  createRequire(join(process.cwd(), 'package.json')).resolve('tsx'),
).href;

export interface Worker {
  readonly child: ChildProcess;
  /** Every stdout line so far. */
  readonly lines: string[];
  /** Resolves when the process has exited (code, or the signal that ended it). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first line (past or future) matching; rejects if the process exits first. */
  waitForLine(match: (line: string) => boolean): Promise<string>;
  /** Writes one line to the process's stdin. */
  send(line: string): void;
  stderr(): string;
  /** SIGKILLs the process (if still running) and waits for it to exit. */
  kill(): Promise<void>;
}

const running = new Set<Worker>();

/** Starts `script` (a URL, e.g. `new URL('./__fixtures__/w.ts', import.meta.url)`) as an OS process. */
export function spawnWorker(script: URL, args: readonly string[]): Worker {
  const file = fileURLToPath(script);
  const child = spawn(
    process.execPath,
    ['--conditions=@mem/source', '--import', tsxLoader, file, ...args],
    { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  let stderr = '';
  const waiters: Array<{ match: (line: string) => boolean; resolve: (line: string) => void }> = [];
  let ended = false;
  const exitWaiters: Array<() => void> = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  // Writing to a dead child's stdin must not crash the test process.
  child.stdin?.on('error', () => {});
  const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  reader.on('line', (line) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.match(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const closed = new Promise<void>((resolve) => reader.once('close', resolve));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      // Every line the process wrote before it died is read before `exited` resolves.
      void closed.then(() => {
        ended = true;
        running.delete(worker);
        for (const fail of exitWaiters.splice(0)) fail();
        resolve({ code, signal });
      });
    });
  });
  const worker: Worker = {
    child,
    lines,
    exited,
    waitForLine(match) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      if (ended) return Promise.reject(exitError(file, child, stderr));
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        exitWaiters.push(() => reject(exitError(file, child, stderr)));
      });
    },
    send(line) {
      if (!ended) child.stdin?.write(`${line}\n`);
    },
    stderr: () => stderr,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  running.add(worker);
  return worker;
}

function exitError(file: string, child: ChildProcess, stderr: string): Error {
  return new Error(
    `worker ${file} exited (code ${child.exitCode}, signal ${child.signalCode}) before the expected line:\n${stderr.slice(-4_000)}`,
  );
}

/** SIGKILLs every worker still running (afterAll). */
export async function killAllWorkers(): Promise<void> {
  await Promise.all([...running].map((worker) => worker.kill()));
}

/** Waits for the worker to exit with code 0; else throws with its stderr. */
export async function expectCleanExit(worker: Worker): Promise<void> {
  const { code, signal } = await worker.exited;
  if (code !== 0) {
    throw new Error(
      `worker exited with code ${code}, signal ${signal}:\n${worker.stderr().slice(-4_000)}`,
    );
  }
}

/** Deterministic PRNG: the same seed replays the same kill schedule. */
export { seededRandom } from '@mem/core/testing';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
