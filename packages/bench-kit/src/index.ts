export type { BenchSummary } from './bench-stats.ts';
export {
  fmtInt,
  fmtMs,
  fmtUs,
  median,
  now,
  printTable,
  summarizeSamples,
} from './bench-stats.ts';
