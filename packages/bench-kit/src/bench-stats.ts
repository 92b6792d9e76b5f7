/**
 * Small statistics and table helpers shared by the packages' benchmarks (`pnpm bench`): a
 * nanosecond timer, median/p90 summaries, and a plain-text table printer.
 */
/** Nanosecond timer. */
export const now = (): bigint => process.hrtime.bigint();

export interface BenchSummary {
  runs: number;
  medianUs: number;
  p90Us: number;
  meanUs: number;
}

/** Median, p90 and mean of per-call samples given in nanoseconds, as microseconds. */
export function summarizeSamples(samplesNs: readonly number[]): BenchSummary {
  const sorted = [...samplesNs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length);
  return { runs: sorted.length, medianUs: at(0.5) / 1e3, p90Us: at(0.9) / 1e3, meanUs: mean / 1e3 };
}

export function fmtUs(us: number): string {
  if (us >= 1e6) return `${(us / 1e6).toFixed(2)} s`;
  if (us >= 1e3) return `${(us / 1e3).toFixed(2)} ms`;
  return `${us.toFixed(2)} µs`;
}

/** Prints rows as an aligned text table. */
export function printTable(
  title: string,
  rows: ReadonlyArray<Record<string, string | number>>,
): void {
  const first = rows[0];
  if (first === undefined) return;
  const cols = Object.keys(first);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i]!)).join('  ');
  console.log(`\n${title}`);
  console.log(line(cols));
  console.log(line(width.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(cols.map((c) => String(r[c]))));
}

/** Median of plain numbers (ms, bytes, ...). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export function fmtMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(2)} ms`;
}

export function fmtInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
