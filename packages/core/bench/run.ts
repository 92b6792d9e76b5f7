import { benchTrim } from './langchain-bench.ts';
import { fmtUs, printTable } from './stats.ts';
import { benchTokenize } from './tokenize-bench.ts';
import { benchWindow } from './window-bench.ts';

/**
 * `pnpm bench` for @mem/core: the cost of choosing the next prompt after appending one
 * interaction (4 messages with a tool call) under a 4,000-token budget, side by side with
 * LangChain.js trimMessages, plus first-time token counting against raw gpt-tokenizer.
 */
const quick = process.argv.includes('--quick');
const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const turns = quick ? 500 : 2_000;

benchWindow(1_000, turns); // warm-up: JIT and caches, discarded
const tok = benchTokenize(quick ? 4 : 10, 4_000);
const windows = sizes.map((n) => benchWindow(n, turns));
const trimMemo = await benchTrim(1_000, quick ? 20 : 50, true);
const trimPlain = await benchTrim(300, quick ? 5 : 10, false);

const mem1k = windows[0]!;
const last = windows.at(-1)!;
printTable('Choose the next prompt after appending one interaction (4,000-token budget)', [
  ...windows.map((w) => ({
    implementation: 'mem max_tokens',
    interactions: w.interactions,
    'median / turn': fmtUs(w.select.medianUs),
    'p90 / turn': fmtUs(w.select.p90Us),
    'median incl. counting new turn': fmtUs(w.countAndSelect.medianUs),
    turns: w.select.runs,
  })),
  ...[trimMemo, trimPlain].map((t) => ({
    implementation: `LangChain trimMessages (${t.counter} counter)`,
    interactions: t.interactions,
    'median / turn': fmtUs(t.perCall.medianUs),
    'p90 / turn': fmtUs(t.perCall.p90Us),
    'median incl. counting new turn': '-',
    turns: t.perCall.runs,
  })),
]);
const speedup = trimMemo.perCall.medianUs / mem1k.select.medianUs;
const growth = last.select.medianUs / mem1k.select.medianUs;
printTable('Ratios', [
  {
    measure: 'memoized trimMessages / mem at 1,000 interactions',
    value: `${speedup.toFixed(0)}x`,
    target: '>= 1000x',
  },
  {
    measure: `mem median at ${last.interactions} / at 1,000`,
    value: growth.toFixed(2),
    target: '~1 (no growth)',
  },
  {
    measure: `mem median at ${last.interactions} interactions`,
    value: fmtUs(last.select.medianUs),
    target: '< 50 µs',
  },
  {
    measure: 'first-time counting: mem / raw gpt-tokenizer',
    value: tok.ratio.toFixed(3),
    target: '<= 1.2',
  },
]);
console.log(
  JSON.stringify({
    bench: '@mem/core window',
    node: process.version,
    budget: 4000,
    window: windows.map((w) => ({
      interactions: w.interactions,
      medianUs: w.select.medianUs,
      p90Us: w.select.p90Us,
      withCountingMedianUs: w.countAndSelect.medianUs,
      windowMessages: w.windowMessages,
    })),
    trimMessages: [trimMemo, trimPlain].map((t) => ({
      interactions: t.interactions,
      counter: t.counter,
      medianUs: t.perCall.medianUs,
    })),
    speedupVsMemoizedTrim1k: speedup,
    growth1kToMax: growth,
    tokenize: tok,
  }),
);
