import { fmtInt, fmtMs, fmtUs, printTable } from '@mem/bench-kit';
import { type AppendRow, type AppendSide, appendRounds } from './append-rounds.ts';
import type { BenchRun } from './bench-run.ts';
import { type BytesOptions, benchBytes } from './bytes-per-turn.ts';
import { benchFresh, type FreshProcessOptions } from './fresh-process.ts';

/** A row of the Targets table. */
export type TargetRow = { measure: string; value: string; target: string };

/** What a store's bench supplies to the shared sections (a), (b) and (c). */
export interface StoreBenchBackend<S extends AppendSide = AppendSide> {
  /** (a) append one turn: the store beside the raw floor(s), interleaved. */
  append: {
    /** The end of table (a)'s title, after `(a) Append one turn (4 messages, ~N B JSON each), `. */
    title: string;
    /** Turns per side of the discarded warm-up run. */
    warmUpTurns: number;
    /** Interleaved rounds of the measured run. */
    rounds: number;
    /** Opens the sides of one run (`tag` is `warm` or `run`; `total` turns per side follow). */
    open: (tag: string, total: number) => Promise<{ sides: S[]; close: () => Promise<void> }>;
    /** The store / raw ratios for the Targets table. */
    targets: (rows: readonly AppendRow<S>[]) => TargetRow[];
    /** The ratios for the JSON line (after `append`). */
    json: (rows: readonly AppendRow<S>[]) => Record<string, unknown>;
  };
  /** (b) reads in a fresh process. */
  fresh: FreshProcessOptions & {
    title: string;
    /** Target of a fresh-process context() (e.g. `< 10 ms`). */
    contextTarget: string;
    /** Digits of the context() growth ratio. */
    growthDigits: number;
  };
  /** (c) bytes written per turn. */
  bytes: BytesOptions & {
    title: string;
    /** The table's byte columns: a per-turn field of the probe and its heading. */
    columns: ReadonlyArray<{ key: string; column: string }>;
    /** The field whose max / min over the sizes is a target, its JSON key and its measure. */
    spread: { key: string; json: string; measure: string };
  };
}

/**
 * Sections (a), (b) and (c) of a store's `pnpm bench`: prints their tables and a Targets table,
 * and adds their fields to `run.out`.
 */
export async function runStoreSections<S extends AppendSide>(
  run: BenchRun,
  backend: StoreBenchBackend<S>,
): Promise<void> {
  const { quick, out, bytesPerMessage } = run;
  const appendRun = async (tag: string, rounds: number, perRound: number) => {
    const { sides, close } = await backend.append.open(tag, rounds * perRound);
    try {
      return await appendRounds(sides, rounds, perRound);
    } finally {
      await close();
    }
  };
  const perRound = quick ? 100 : 300;
  await appendRun('warm', 1, backend.append.warmUpTurns); // warm-up: JIT, files, caches; discarded
  const append = await appendRun('run', backend.append.rounds, perRound);
  printTable(
    `(a) Append one turn (4 messages, ~${Math.round(bytesPerMessage)} B JSON each), ${backend.append.title}`,
    append.map((a) => ({
      implementation: a.label,
      'turns/s': fmtInt(a.turnsPerSec),
      'median / turn': a.perTurn === undefined ? '-' : fmtUs(a.perTurn.medianUs),
      'p90 / turn': a.perTurn === undefined ? '-' : fmtUs(a.perTurn.p90Us),
      turns: a.turns,
    })),
  );

  const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  const fresh = await benchFresh(run, backend.fresh, sizes, 10_000, quick ? 2 : 5);
  printTable(
    backend.fresh.title,
    fresh.rows.map((f) => ({
      call: f.what,
      interactions: fmtInt(f.interactions),
      'messages returned': f.messages,
      'median open': fmtMs(f.openMs),
      'median call': fmtMs(f.callMs),
      'max call': fmtMs(f.callMsMax),
      'median process total': fmtMs(f.processMs),
      runs: f.runs,
    })),
  );
  const ctx = fresh.rows.filter((f) => f.mode === 'context');
  const tail = fresh.rows.filter((f) => f.mode === 'tail');
  const growth = (rows: typeof ctx) => rows.at(-1)!.callMs / rows[0]!.callMs;

  const { columns, spread } = backend.bytes;
  const bytes = await benchBytes(run, backend.bytes, [100, 1_000, 10_000], 3, quick ? 20 : 50);
  printTable(
    backend.bytes.title,
    bytes.map((b) => ({
      interactions: fmtInt(b.interactions),
      ...Object.fromEntries(columns.map((c) => [c.column, fmtInt(b[c.key]!)])),
      turns: b.turns,
    })),
  );
  const spreadValue =
    Math.max(...bytes.map((b) => b[spread.key]!)) / Math.min(...bytes.map((b) => b[spread.key]!));

  printTable('Targets', [
    ...backend.append.targets(append),
    ...ctx.map((c) => ({
      measure: `fresh-process context() at ${fmtInt(c.interactions)} interactions`,
      value: fmtMs(c.callMs),
      target: backend.fresh.contextTarget,
    })),
    {
      measure: `context() growth, ${fmtInt(sizes.at(-1)!)} / 1,000`,
      value: growth(ctx).toFixed(backend.fresh.growthDigits),
      target: '~1 (no growth)',
    },
    {
      measure: `raw tail read growth, ${fmtInt(sizes.at(-1)!)} / 1,000`,
      value: growth(tail).toFixed(2),
      target: '~1 (no growth)',
    },
    { measure: spread.measure, value: spreadValue.toFixed(2), target: '~1 (constant)' },
  ]);

  out.bytesPerMessage = bytesPerMessage;
  out.append = append.map((a) => ({
    implementation: a.label,
    turnsPerSec: a.turnsPerSec,
    medianUs: a.perTurn?.medianUs,
    p90Us: a.perTurn?.p90Us,
    turns: a.turns,
  }));
  Object.assign(out, backend.append.json(append));
  out.fresh = fresh.rows.map((f) => ({
    mode: f.mode,
    interactions: f.interactions,
    messages: f.messages,
    openMs: f.openMs,
    callMs: f.callMs,
    processMs: f.processMs,
    runs: f.runs,
  }));
  out.contextGrowth = growth(ctx);
  out.tailGrowth = growth(tail);
  out.prefillMs = fresh.prefillMs;
  out.bytes = bytes;
  out[spread.json] = spreadValue;
}
