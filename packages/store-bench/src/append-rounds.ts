import { type BenchSummary, now, summarizeSamples } from '@mem/bench-kit';

/** One side of the append comparison: the store, or a raw floor written with the bare client. */
export interface AppendSide {
  label: string;
  /** What the side is (`store`, `raw`, `pipelined`, ...), for the backend's ratios. */
  kind: string;
  /** Appends turns [from, from + count) and records per-turn samples (ns) where meaningful. */
  appendTurns: (from: number, count: number, samples: number[]) => Promise<void>;
}

export interface AppendRow<S extends AppendSide> {
  side: S;
  label: string;
  kind: string;
  turns: number;
  turnsPerSec: number;
  /** Undefined when the side records no per-turn samples (a pipeline). */
  perTurn: BenchSummary | undefined;
}

/** `appendTurns` of a side that appends one turn per call, timing each. */
export function turnByTurn(
  appendTurn: (i: number) => Promise<void> | void,
): AppendSide['appendTurns'] {
  return async (from, count, samples) => {
    for (let i = from; i < from + count; i++) {
      const t0 = now();
      await appendTurn(i);
      samples.push(Number(now() - t0));
    }
  };
}

/**
 * Interleaved rounds: each round, every side appends the same `perRound` turns in turn, so a
 * slow moment of a shared machine hits every side alike.
 */
export async function appendRounds<S extends AppendSide>(
  sides: readonly S[],
  rounds: number,
  perRound: number,
): Promise<AppendRow<S>[]> {
  const runs = sides.map((side) => ({ side, samples: [] as number[], elapsedNs: 0, turns: 0 }));
  let next = 0;
  for (let r = 0; r < rounds; r++) {
    for (const run of runs) {
      const start = now();
      await run.side.appendTurns(next, perRound, run.samples);
      run.elapsedNs += Number(now() - start);
      run.turns += perRound;
    }
    next += perRound;
  }
  return runs.map((run) => ({
    side: run.side,
    label: run.side.label,
    kind: run.side.kind,
    turns: run.turns,
    turnsPerSec: run.turns / (run.elapsedNs / 1e9),
    perTurn: run.samples.length > 0 ? summarizeSamples(run.samples) : undefined,
  }));
}
