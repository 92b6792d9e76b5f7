import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from '@mem/bench-kit';
import type { Store } from '@mem/core/backend';
import { type FreshReadMode, measureFreshRead } from '@mem/core/testing';
import type { BenchRun } from './bench-run.ts';

/** How the fresh-process section reaches a backend. */
export interface FreshProcessOptions {
  /** The child script: calls `runFreshReadChild` with the backend's store. */
  child: URL;
  /** What the child opens (a database path, a server URL), its first argument. */
  place: string;
  /** The store the sessions are prefilled through. */
  openStore: () => Store;
  /** Runs after the prefill, before the children (e.g. a WAL checkpoint). */
  afterPrefill?: () => void;
}

interface ChildResult {
  mode: string;
  openMs: number;
  callMs: number;
  sinceStartMs: number;
  messages: number;
}

/** The body of a child script: `<place> <session id> <mode>` → one measureFreshRead JSON line. */
export async function runFreshReadChild(open: (place: string) => Store): Promise<void> {
  const [place, sessionId, mode] = process.argv.slice(2) as [string, string, FreshReadMode];
  await measureFreshRead(open(place), sessionId, mode);
}

function spawnChild(child: URL, place: string, sessionId: string, mode: string) {
  return new Promise<ChildResult & { processMs: number }>((resolve, reject) => {
    const t0 = performance.now();
    execFile(
      process.execPath,
      [...process.execArgv, fileURLToPath(child), place, sessionId, mode],
      { maxBuffer: 1 << 20 },
      (error, stdout) => {
        const processMs = performance.now() - t0;
        if (error) return reject(error);
        const line = stdout.trim().split('\n').at(-1) ?? '';
        resolve({ ...(JSON.parse(line) as ChildResult), processMs });
      },
    );
  });
}

/**
 * In a fresh process each time: the engine's context() and the raw tail read on sessions of
 * `sizes` interactions, and loading a whole history of `fullSize`; `rounds` children per case.
 */
export async function benchFresh(
  run: BenchRun,
  options: FreshProcessOptions,
  sizes: readonly number[],
  fullSize: number,
  rounds: number,
) {
  const store = options.openStore();
  const t0 = performance.now();
  for (const size of sizes) await run.prefill(store, `ctx${size}`, size);
  const prefillMs = performance.now() - t0;
  await store.close();
  options.afterPrefill?.();
  const cases = [
    ...sizes.flatMap((size) => [
      { what: 'engine session.context()', mode: 'context', size },
      { what: "store.read tail (from: 'end', limit: 200)", mode: 'tail', size },
    ]),
    { what: 'store.read whole history', mode: 'full', size: fullSize },
  ];
  const samples = cases.map(() => [] as Array<ChildResult & { processMs: number }>);
  for (let r = 0; r < rounds; r++) {
    for (const [i, c] of cases.entries()) {
      samples[i]!.push(await spawnChild(options.child, options.place, `ctx${c.size}`, c.mode));
    }
  }
  return {
    prefillMs,
    rows: cases.map((c, i) => ({
      what: c.what,
      mode: c.mode,
      interactions: c.size,
      runs: samples[i]!.length,
      messages: samples[i]![0]!.messages,
      openMs: median(samples[i]!.map((s) => s.openMs)),
      callMs: median(samples[i]!.map((s) => s.callMs)),
      callMsMax: Math.max(...samples[i]!.map((s) => s.callMs)),
      processMs: median(samples[i]!.map((s) => s.processMs)),
    })),
  };
}
