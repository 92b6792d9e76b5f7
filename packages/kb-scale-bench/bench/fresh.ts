import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from '@mem/bench-kit';
import type { Kind, Places } from './backends.ts';
import { benchQueries } from './dialogue-chunks.ts';

const CHILD = new URL('./fresh-child.ts', import.meta.url);
/** A child that takes longer than this is killed and the run fails (1M chunks: minutes). */
const CHILD_TIMEOUT_MS = 15 * 60_000;

export interface FreshFigure {
  runs: number;
  /** Open + first search, ms: median, min and max over the runs. */
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** RSS added by the open + first search, bytes (median). */
  rssAdded: number;
}

interface ChildLine {
  firstSearchMs: number;
  rssAdded: number;
}

function spawnChild(kind: Kind, size: number, places: Places, query: string): Promise<ChildLine> {
  // The parent's flags (tsx loader, --conditions, the heap limit) without a script of its own.
  const flags = process.execArgv.filter((a) => a !== '--eval' && !a.startsWith('--eval='));
  const args = [fileURLToPath(CHILD), kind, String(size), places.sqlitePath, places.redisUrl];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...flags, ...args, query],
      { maxBuffer: 1 << 20, timeout: CHILD_TIMEOUT_MS },
      (error, stdout, stderr) => {
        if (error)
          return reject(new Error(`fresh child ${kind} failed: ${stderr}`, { cause: error }));
        resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ChildLine);
      },
    );
  });
}

/**
 * The first search of a fresh process, `runs` children per side, interleaved (round r runs
 * every side once, on its own session: r-th query of the session queries); medians per side.
 */
export async function benchFresh(
  kinds: readonly Kind[],
  size: number,
  places: Places,
  runs: number,
): Promise<Map<Kind, FreshFigure>> {
  const queries = benchQueries(size, runs, 'session', 101);
  const samples = new Map<Kind, ChildLine[]>(kinds.map((k) => [k, []]));
  for (let r = 0; r < runs; r++) {
    const order = kinds.map((_, i) => kinds[(i + r) % kinds.length]!);
    for (const kind of order) {
      samples.get(kind)!.push(await spawnChild(kind, size, places, JSON.stringify(queries[r])));
    }
  }
  return new Map(
    [...samples].map(([kind, lines]) => {
      const ms = lines.map((l) => l.firstSearchMs);
      return [
        kind,
        {
          runs: lines.length,
          medianMs: median(ms),
          minMs: Math.min(...ms),
          maxMs: Math.max(...ms),
          rssAdded: median(lines.map((l) => l.rssAdded)),
        },
      ];
    }),
  );
}
