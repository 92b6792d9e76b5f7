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
 * A server that keeps no state opens the store and an engine per request. Per size (1k and 10k
 * interactions), in interleaved rounds in one process:
 * (a) warm: one turn (append 4 messages + context(), max_tokens 4,000) on an engine kept open;
 * (b) cold: open store + engine, the same turn, close;
 * (c) cold again, timed step by step (open = create + first connection through an `info` probe).
 * (a) and (b)/(c) use two files of the same size: a connection held open on the file would keep
 * the cold side's close from being the last one (which checkpoints the WAL).
 * Then the cold turn once per fresh process (Node startup dominates; reported apart).
 */
export const PER_REQUEST_PROFILE = {
  short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
} as const;

const SESSION = 'per-request';

/** A cold variant: the default (close closes; the last close checkpoints), or `reuseConnection`. */
export interface ColdVariant {
  label: string;
  reuseConnection: boolean;
}

const VARIANTS: readonly ColdVariant[] = [
  { label: 'default', reuseConnection: false },
  { label: 'reuseConnection: true', reuseConnection: true },
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

/** The cold turn step by step; `probe` opens the connection first (an `info` call). */
export async function coldTurn(
  path: string,
  input: ReturnType<typeof turnInput>,
  probe: boolean,
  reuseConnection: boolean,
): Promise<ChildTimes> {
  const t0 = performance.now();
  const store = createSqliteStore({ path, reuseConnection });
  const session = engineOn(store).session(SESSION);
  if (probe) await store.info(SESSION);
  const t1 = performance.now();
  await session.append(input);
  const t2 = performance.now();
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

export async function runPerRequest(run: BenchRun, dir: string): Promise<void> {
  const sizes = run.quick ? [1_000, 2_000] : [1_000, 10_000];
  const rounds = run.quick ? 12 : 40;
  const warmUp = run.quick ? 2 : 5;
  const freshRounds = run.quick ? 3 : 8;
  const rows: PerRequestRow[] = [];
  const fresh: Array<Record<string, string | number>> = [];
  const json: Record<string, Record<string, unknown>> = {};
  for (const size of sizes) {
    const warmPath = join(dir, `per-request-warm-${size}.db`);
    await prefilled(run, warmPath, size);
    // One file per variant: the connection reuseConnection keeps open would make the default
    // side's closes skip the checkpoint too.
    const coldPaths = VARIANTS.map((v) =>
      join(dir, `per-request-cold-${size}-${v.reuseConnection}.db`),
    );
    for (const path of coldPaths) await prefilled(run, path, size);
    const warmStore = createSqliteStore({ path: warmPath });
    const warmEngine = engineOn(warmStore);
    await warmEngine.session(SESSION).context(); // loads the session, outside the timer
    let next = size;
    const warm: number[] = [];
    const cold = VARIANTS.map(() => [] as number[]);
    const steps = VARIANTS.map(() => [] as ChildTimes[]);
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
        if (r < warmUp) continue;
        cold[v]!.push(c);
        steps[v]!.push(s);
      }
    }
    await warmStore.close();
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
      const children: Fresh[] = [];
      for (let r = 0; r < freshRounds; r++) {
        children.push(
          await spawnTurn(coldPaths[v]!, turnInput(run, next++), variant.reuseConnection),
        );
      }
      const child = (k: keyof Fresh) => median(children.map((c) => c[k]));
      fresh.push({
        interactions: fmtInt(size),
        variant: variant.label,
        'open (first connection)': fmtMs(child('openMs')),
        'first append': fmtMs(child('appendMs')),
        'context()': fmtMs(child('contextMs')),
        close: fmtMs(child('closeMs')),
        'process (spawn to exit)': fmtMs(child('processMs')),
      });
      const { interactions: _, warmMs: __, variant: ___, ...figures } = row;
      json[size]![variant.reuseConnection ? 'coldReuseConnection' : 'cold'] = {
        ...figures,
        fresh: Object.fromEntries(
          (['openMs', 'appendMs', 'contextMs', 'closeMs', 'processMs'] as const).map((k) => [
            k,
            child(k),
          ]),
        ),
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
      target: 'b / a <= 2x',
    })),
  );
  printTable(
    `(e') Per-request engine in a fresh process each time (medians of ${freshRounds}; Node startup dominates the process column)`,
    fresh,
  );
  run.out.perRequest = json;
}
