import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmtInt, fmtMs, median, printTable } from '@mem/bench-kit';
import { createMemoryEngine, type MemoryEngine } from '@mem/core';
import type { Store } from '@mem/core/backend';
import type { BenchRun } from '@mem/store-bench';
import BetterSqlite3 from 'better-sqlite3';
import { createSqliteStore } from '../src/index.ts';

/**
 * A server that keeps no state opens the store and an engine per request. Per size (1k and 100k
 * interactions; `--sizes=1000,10000,100000` picks others), in interleaved rounds in one process:
 * (a) warm: one turn (append 4 messages + context(), max_tokens 4,000) on an engine kept open;
 * (b) cold: open store + engine, the same turn, close;
 * (c) cold again, timed step by step (open = create + first connection through an `info` probe;
 *     the first append split into the engine's first load — the store calls it makes before the
 *     write —, the store's append and the engine's own work, through a timing wrapper).
 * (a) and (b)/(c) use files of the same size: a connection held open on the file would keep
 * the cold side's close from being the last one (which checkpoints the WAL). The third cold
 * variant does exactly that on purpose: a store opened at start-up and left idle holds its file
 * open, and each request still opens (and closes) a fresh connection of its own.
 * Then the cold turn once per fresh process (Node startup dominates; reported apart;
 * `--no-fresh` skips it).
 */
export const PER_REQUEST_PROFILE = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
} as const;

const SESSION = 'per-request';

/**
 * A cold variant: the default (close closes; the last close checkpoints), `reuseConnection`, or
 * the default while another store of the process (opened at start-up, idle) holds the file
 * open, so each request still opens a fresh connection but none closes the file's last one.
 */
export interface ColdVariant {
  label: string;
  reuseConnection: boolean;
  heldOpen: boolean;
  json: string;
}

const VARIANTS: readonly ColdVariant[] = [
  { label: 'default', reuseConnection: false, heldOpen: false, json: 'cold' },
  {
    label: 'reuseConnection: true',
    reuseConnection: true,
    heldOpen: false,
    json: 'coldReuseConnection',
  },
  {
    label: 'default, file held open',
    reuseConnection: false,
    heldOpen: true,
    json: 'coldHeldOpen',
  },
];

export interface PerRequestRow {
  interactions: number;
  variant: string;
  warmMs: number;
  coldMs: number;
  ratio: number;
  openMs: number;
  appendMs: number;
  contextMs: number;
  closeMs: number;
}

export interface ChildTimes {
  openMs: number;
  appendMs: number;
  contextMs: number;
  closeMs: number;
}

/** The first append split: store calls before the write (the first load), the write, the rest. */
export interface AppendSplit {
  loadMs: number;
  loadCalls: string;
  storeAppendMs: number;
  engineMs: number;
}

/**
 * The store with its calls timed: `calls` gets one entry per call (method, ms). Not a mock: every
 * call goes to the real store, only the time around it is taken.
 */
function timed(store: Store, calls: Array<{ method: string; ms: number }>): Store {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return async (...args: unknown[]) => {
        const t0 = performance.now();
        try {
          return await (value as (...a: unknown[]) => unknown).apply(target, args);
        } finally {
          calls.push({ method: key, ms: performance.now() - t0 });
        }
      };
    },
  });
}

/** A turn's messages without counts or ids (the engine counts them and gives them ids). */
export function turnInput(run: BenchRun, i: number) {
  return run.turnAt(i).map(({ role, content }) => ({ role, content }));
}

function engineOn(store: Store): MemoryEngine {
  return createMemoryEngine({ profile: PER_REQUEST_PROFILE, store });
}

async function turn(engine: MemoryEngine, input: ReturnType<typeof turnInput>): Promise<void> {
  const session = engine.session(SESSION);
  await session.append(input);
  await session.context();
}

/**
 * The cold turn step by step; `probe` opens the connection first (an `info` call). With
 * `split`, the store's calls are timed (see `timed`) and the first append is split.
 */
export async function coldTurn(
  path: string,
  input: ReturnType<typeof turnInput>,
  probe: boolean,
  reuseConnection: boolean,
  split?: (s: AppendSplit) => void,
): Promise<ChildTimes> {
  const t0 = performance.now();
  const store = createSqliteStore({ path, reuseConnection });
  const calls: Array<{ method: string; ms: number }> = [];
  const session = engineOn(split === undefined ? store : timed(store, calls)).session(SESSION);
  if (probe) await store.info(SESSION);
  const t1 = performance.now();
  await session.append(input);
  const t2 = performance.now();
  if (split !== undefined) {
    const write = calls.findIndex((c) => c.method === 'append');
    const load = calls.slice(0, write);
    const loadMs = load.reduce((sum, c) => sum + c.ms, 0);
    const storeAppendMs = calls[write]?.ms ?? 0;
    split({
      loadMs,
      loadCalls: load.map((c) => c.method).join('+'),
      storeAppendMs,
      engineMs: t2 - t1 - loadMs - storeAppendMs,
    });
  }
  await session.context();
  const t3 = performance.now();
  await store.close();
  const t4 = performance.now();
  return { openMs: t1 - t0, appendMs: t2 - t1, contextMs: t3 - t2, closeMs: t4 - t3 };
}

async function prefilled(run: BenchRun, path: string, interactions: number): Promise<void> {
  const store = createSqliteStore({ path });
  await run.prefill(store, SESSION, interactions);
  await store.close();
  const db = new BetterSqlite3(path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

function spawnTurn(
  path: string,
  input: ReturnType<typeof turnInput>,
  reuseConnection: boolean,
): Promise<ChildTimes & { processMs: number }> {
  const child = fileURLToPath(new URL('./per-request-child.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    execFile(
      process.execPath,
      [...process.execArgv, child, path, JSON.stringify(input), String(reuseConnection)],
      { maxBuffer: 1 << 20 },
      (error, stdout) => {
        const processMs = performance.now() - t0;
        if (error) return reject(error);
        const line = stdout.trim().split('\n').at(-1) ?? '';
        resolve({ ...(JSON.parse(line) as ChildTimes), processMs });
      },
    );
  });
}

type Fresh = ChildTimes & { processMs: number };

/** `--sizes=1000,100000` (interactions per session), else 1k and 100k (1k and 2k with `--quick`). */
function sizesOf(run: BenchRun, argv: readonly string[]): number[] {
  const flag = argv.find((a) => a.startsWith('--sizes='))?.slice('--sizes='.length);
  if (flag === undefined) return run.quick ? [1_000, 2_000] : [1_000, 100_000];
  const sizes = flag.split(',').map(Number);
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new Error(`--sizes takes whole numbers of interactions, got ${flag}`);
  }
  return sizes;
}

export async function runPerRequest(run: BenchRun, dir: string): Promise<void> {
  const sizes = sizesOf(run, process.argv);
  const withFresh = !process.argv.includes('--no-fresh');
  const rounds = run.quick ? 12 : 40;
  const warmUp = run.quick ? 2 : 5;
  const freshRounds = withFresh ? (run.quick ? 3 : 8) : 0;
  const rows: PerRequestRow[] = [];
  const fresh: Array<Record<string, string | number>> = [];
  const splitRows: Array<Record<string, string>> = [];
  const json: Record<string, Record<string, unknown>> = {};
  for (const size of sizes) {
    const warmPath = join(dir, `per-request-warm-${size}.db`);
    await prefilled(run, warmPath, size);
    // One file per variant: the connection reuseConnection keeps open would make the default
    // side's closes skip the checkpoint too.
    const coldPaths = VARIANTS.map((v) => join(dir, `per-request-cold-${size}-${v.json}.db`));
    for (const path of coldPaths) await prefilled(run, path, size);
    const holders = VARIANTS.flatMap((v, i) =>
      v.heldOpen ? [createSqliteStore({ path: coldPaths[i] as string })] : [],
    );
    for (const holder of holders) await holder.info(SESSION); // opens its connection
    const warmStore = createSqliteStore({ path: warmPath });
    const warmEngine = engineOn(warmStore);
    await warmEngine.session(SESSION).context(); // loads the session, outside the timer
    let next = size;
    const warm: number[] = [];
    const cold = VARIANTS.map(() => [] as number[]);
    const steps = VARIANTS.map(() => [] as ChildTimes[]);
    const splits = VARIANTS.map(() => [] as AppendSplit[]);
    for (let r = 0; r < rounds; r++) {
      const w0 = performance.now();
      await turn(warmEngine, turnInput(run, next++));
      if (r >= warmUp) warm.push(performance.now() - w0);
      for (const [v, variant] of VARIANTS.entries()) {
        const path = coldPaths[v]!;
        const c0 = performance.now();
        await coldTurn(path, turnInput(run, next++), false, variant.reuseConnection);
        const c = performance.now() - c0;
        const s = await coldTurn(path, turnInput(run, next++), true, variant.reuseConnection);
        let split: AppendSplit | undefined;
        await coldTurn(path, turnInput(run, next++), true, variant.reuseConnection, (x) => {
          split = x;
        });
        if (r < warmUp) continue;
        cold[v]!.push(c);
        steps[v]!.push(s);
        splits[v]!.push(split as AppendSplit);
      }
    }
    await warmStore.close();
    for (const holder of holders) await holder.close();
    json[size] = { warmMs: median(warm) };
    for (const [v, variant] of VARIANTS.entries()) {
      const step = (k: keyof ChildTimes) => median(steps[v]!.map((s) => s[k]));
      const row: PerRequestRow = {
        interactions: size,
        variant: variant.label,
        warmMs: median(warm),
        coldMs: median(cold[v]!),
        ratio: median(cold[v]!) / median(warm),
        openMs: step('openMs'),
        appendMs: step('appendMs'),
        contextMs: step('contextMs'),
        closeMs: step('closeMs'),
      };
      rows.push(row);
      const part = (k: 'loadMs' | 'storeAppendMs' | 'engineMs') =>
        median(splits[v]!.map((s) => s[k]));
      const appendSplit = {
        loadMs: part('loadMs'),
        loadCalls: splits[v]![0]?.loadCalls ?? '',
        storeAppendMs: part('storeAppendMs'),
        engineMs: part('engineMs'),
      };
      splitRows.push({
        interactions: fmtInt(size),
        store: variant.label,
        open: fmtMs(row.openMs),
        'first load (store calls)': `${fmtMs(appendSplit.loadMs)} (${appendSplit.loadCalls})`,
        'store.append': fmtMs(appendSplit.storeAppendMs),
        "append, engine's own": fmtMs(appendSplit.engineMs),
        'context()': fmtMs(row.contextMs),
        'close()': fmtMs(row.closeMs),
      });
      const children: Fresh[] = [];
      // A fresh process holds nothing open: the held-open variant is the default there.
      for (let r = 0; r < (variant.heldOpen ? 0 : freshRounds); r++) {
        children.push(
          await spawnTurn(coldPaths[v]!, turnInput(run, next++), variant.reuseConnection),
        );
      }
      const child = (k: keyof Fresh) => median(children.map((c) => c[k]));
      if (children.length > 0) {
        fresh.push({
          interactions: fmtInt(size),
          variant: variant.label,
          'open (first connection)': fmtMs(child('openMs')),
          'first append': fmtMs(child('appendMs')),
          'context()': fmtMs(child('contextMs')),
          close: fmtMs(child('closeMs')),
          'process (spawn to exit)': fmtMs(child('processMs')),
        });
      }
      const { interactions: _, warmMs: __, variant: ___, ...figures } = row;
      json[size]![variant.json] = {
        ...figures,
        appendSplit,
        ...(children.length > 0
          ? {
              fresh: Object.fromEntries(
                (['openMs', 'appendMs', 'contextMs', 'closeMs', 'processMs'] as const).map((k) => [
                  k,
                  child(k),
                ]),
              ),
            }
          : {}),
      };
    }
  }
  printTable(
    `(e) Per-request engine: one turn (append 4 messages + context(), max_tokens 4,000); medians of ${rounds - warmUp} interleaved rounds`,
    rows.map((r) => ({
      interactions: fmtInt(r.interactions),
      '(a) warm turn': fmtMs(r.warmMs),
      '(b) open + turn + close': fmtMs(r.coldMs),
      close: r.variant,
      'b / a': `${r.ratio.toFixed(2)}x`,
      open: fmtMs(r.openMs),
      'first append': fmtMs(r.appendMs),
      'context()': fmtMs(r.contextMs),
      'close()': fmtMs(r.closeMs),
      target: 'b / a <= 5x',
    })),
  );
  printTable(
    `(e) Where a cold turn's time goes (medians of ${rounds - warmUp} split rounds; the first append = first load + store.append + the engine's own work)`,
    splitRows,
  );
  if (withFresh) {
    printTable(
      `(e') Per-request engine in a fresh process each time (medians of ${freshRounds}; Node startup dominates the process column)`,
      fresh,
    );
  }
  run.out.perRequest = json;
}
