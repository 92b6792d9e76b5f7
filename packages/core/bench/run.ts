import { existsSync } from 'node:fs';
import { fmtUs, printTable } from '@mem/bench-kit';
import { createTokenCounter } from '../src/tokens/token-counter.ts';
import type { EngineResult } from './engine-bench.ts';
import {
  benchEngines,
  benchEngineWall,
  benchExtractive,
  PLAIN_PROFILE,
  SUMMARIZER_PROFILE,
} from './engine-bench.ts';
import { benchTrim } from './langchain-bench.ts';
import { benchTokenize } from './tokenize-bench.ts';
import { benchWindows } from './window-bench.ts';
import { benchWorstCaseTokens } from './worst-case-tokens-bench.ts';

/**
 * `pnpm bench` for @mem/core, side by side in one run:
 * - window: choosing the next prompt after appending one interaction (4 messages, a tool call)
 *   under a 4,000-token budget, vs LangChain.js trimMessages; first-time token counting.
 * - engine: append a turn + build the context on a 10,000-interaction session, summarizer
 *   profile with a knowledge base vs the plain window; extractive summary of 100k tokens.
 * - tokens: worst-case token counting, 1 MB of text without separators vs 1 MB of prose.
 * - conditions: CEL conditions on 1 MB messages and at their work budget (condition-bench.ts,
 *   which prints its own table and JSON line).
 * - recall: is a turn from long ago in the prompt when a question comes back to it? mem vs
 *   recency vs BM25 within the same budgets (recall/recall-bench.ts, own tables and JSON line);
 *   `--recall-data=<dir>` (or MEM_RECALL_DATA) adds LoCoMo from that directory, as external data.
 * - recall-speed: context() with retrieval on 1k / 10k-interaction sessions (recall-speed-bench.ts).
 * - cold: importing the built @mem/core vs `ai` in fresh processes, first count, bundle size
 *   (cold-start-bench.ts; needs `pnpm --filter @mem/core build`; `--cold-before=<dist dir>` adds a
 *   baseline build to the same interleaved rounds).
 * - token-counts: per model and kind of text, mem's count vs the model's tokenizer, before (o200k
 *   for every model) and now, and the cost per message (token-counts-bench.ts).
 * - summary-gate: the summary gate's wrong rejections and wrong acceptances on its corpus, per
 *   language and kind, the gate before issue 23 (a frozen copy under summary-gate-before/) beside
 *   today's, and its cost per summary (summary-gate-bench.ts).
 * - facts: the rules fact extractor's recall and false-fact rate on its labelled corpora, per
 *   language and kind (tuning set and the held-out set written after tuning), and its cost per
 *   message, 1 MB and adversarial messages included (facts-bench.ts).
 * `--quick` shrinks the sizes;
 * `--only=window|engine|tokens|token-counts|summary-gate|facts|user-turn|conditions|recall|recall-speed|cold`
 * runs one part.
 */
const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const out: Record<string, unknown> = { bench: '@mem/core', node: process.version, quick };
// The window and tokens benches compare with gpt-tokenizer's modules and clear their merge
// caches: load the counters' encodings by import() first, so both use one module instance (under
// tsx a synchronous first count would require a second copy of the encoding).
if (only === undefined || only === 'window' || only === 'tokens') {
  await createTokenCounter({ encoding: 'o200k_base' }).ready?.();
  await createTokenCounter({ encoding: 'cl100k_base' }).ready?.();
}

if (only === undefined || only === 'window') {
  const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  const turns = quick ? 500 : 2_000;
  benchWindows([1_000], turns); // warm-up: JIT and caches, discarded
  const tok = benchTokenize(quick ? 4 : 10, 4_000);
  const windows = benchWindows(sizes, turns);
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
  printTable('Window ratios', [
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
  out.window = windows.map((w) => ({
    interactions: w.interactions,
    medianUs: w.select.medianUs,
    p90Us: w.select.p90Us,
    withCountingMedianUs: w.countAndSelect.medianUs,
    windowMessages: w.windowMessages,
  }));
  out.trimMessages = [trimMemo, trimPlain].map((t) => ({
    interactions: t.interactions,
    counter: t.counter,
    medianUs: t.perCall.medianUs,
  }));
  out.speedupVsMemoizedTrim1k = speedup;
  out.growth1kToMax = growth;
  out.tokenize = tok;
}

if (only === undefined || only === 'engine') {
  const history = quick ? 2_000 : 10_000;
  const measured = quick ? 200 : 1_000;
  await benchEngines([['plain', PLAIN_PROFILE]], 500, 200); // warm-up, discarded
  const [plain, summarizer] = (await benchEngines(
    [
      ['plain', PLAIN_PROFILE],
      ['summarizer+kb', SUMMARIZER_PROFILE],
    ],
    history,
    measured,
  )) as [EngineResult, EngineResult];
  const wallPlain = await benchEngineWall(PLAIN_PROFILE, history, measured);
  const wallSummarizer = await benchEngineWall(SUMMARIZER_PROFILE, history, measured);
  const extractive = benchExtractive(quick ? 3 : 7);
  printTable(`Engine: append one turn + build the context, session of ${history} interactions`, [
    ...[plain, summarizer].map((r) => ({
      profile: r.profile,
      'median / turn': fmtUs(r.perTurn.medianUs),
      'p90 / turn': fmtUs(r.perTurn.p90Us),
      'mean / turn': fmtUs(r.perTurn.meanUs),
      'wall / turn incl. background compaction': fmtUs(
        r.profile === 'plain' ? wallPlain : wallSummarizer,
      ),
      compactions: r.compactions,
    })),
  ]);
  const ratio = summarizer.perTurn.medianUs / plain.perTurn.medianUs;
  const wallRatio = wallSummarizer / wallPlain;
  printTable('Engine ratios', [
    {
      measure: 'summarizer+kb / plain window, median per turn',
      value: ratio.toFixed(2),
      target: '<= 1.5',
    },
    {
      measure: 'summarizer+kb / plain window, wall incl. compaction',
      value: wallRatio.toFixed(2),
      target: '(reported)',
    },
    {
      measure: `extractive summary of ${extractive.historyTokens} tokens`,
      value: `${extractive.medianMs.toFixed(1)} ms`,
      target: '< 100 ms',
    },
  ]);
  out.engine = {
    interactions: history,
    plain: plain.perTurn,
    summarizerKb: summarizer.perTurn,
    wallPlainUs: wallPlain,
    wallSummarizerKbUs: wallSummarizer,
    medianRatio: ratio,
    wallRatio,
    compactions: summarizer.compactions,
  };
  out.extractive = extractive;
}
if (only === undefined || only === 'tokens') {
  const rounds = quick ? 2 : 5;
  const results = (['o200k_base', 'cl100k_base'] as const).map((encoding) =>
    benchWorstCaseTokens(encoding, rounds),
  );
  for (const result of results) {
    printTable(
      `Worst-case token counting, ${result.encoding}: countText on 1 MB, median of ${result.rounds} interleaved rounds`,
      result.rows.map((row) => ({
        text: row.kind,
        counter: row.counter,
        bytes: row.bytes.toLocaleString('en-US'),
        tokens: row.tokens.toLocaleString('en-US'),
        median: fmtUs(row.medianMs * 1e3),
        slowest: fmtUs(row.maxMs * 1e3),
        '/ prose': row.ratioToProse.toFixed(2),
      })),
    );
  }
  printTable(
    'Worst-case token counting ratios',
    results.map((result) => ({
      measure: `slowest text without separators / prose, ${result.encoding}`,
      value: result.maxRatio.toFixed(2),
      target: '<= 3',
    })),
  );
  out.worstCaseTokens = results;
}
if (only === undefined || only === 'token-counts') {
  const { runTokenCountsBench } = await import('./token-counts-bench.ts');
  out.tokenCounts = await runTokenCountsBench(quick);
}
if (only === undefined || only === 'summary-gate') {
  const { runSummaryGateBench } = await import('./summary-gate-bench.ts');
  out.summaryGate = runSummaryGateBench(quick);
}
if (only === undefined || only === 'user-turn') {
  const { benchUserTurns, reportUserTurns } = await import('./user-turn-bench.ts');
  const history = quick ? 500 : 2_000;
  const measured = quick ? 200 : 1_000;
  await benchUserTurns(200, 100); // warm-up, discarded
  out.userTurn = reportUserTurns(await benchUserTurns(history, measured), history);
}
if (only === undefined || only === 'facts') {
  const { runFactsBench } = await import('./facts-bench.ts');
  out.facts = await runFactsBench(quick);
}
if (only === undefined || only === 'cold') {
  const cold = await import('./cold-start-bench.ts');
  const before = process.argv.find((a) => a.startsWith('--cold-before='))?.slice(14);
  if (only === 'cold' || existsSync(cold.BUILT_CORE)) {
    out.coldStart = await cold.runColdStartBench({ rounds: quick ? 10 : 20, before });
  } else console.log('cold start: skipped, no build (pnpm --filter @mem/core build)');
}
console.log(JSON.stringify(out));
if (only === undefined || only === 'conditions') await import('./condition-bench.ts');
if (only === undefined || only === 'recall') {
  const { runRecallBench } = await import('./recall/recall-bench.ts');
  const flag = process.argv.find((a) => a.startsWith('--recall-data='));
  const externalDir = flag?.slice('--recall-data='.length) ?? process.env.MEM_RECALL_DATA;
  await runRecallBench({ quick, externalDir: externalDir === '' ? undefined : externalDir });
}
if (only === undefined || only === 'recall-speed') {
  const { runRecallSpeedBench } = await import('./recall-speed-bench.ts');
  await runRecallSpeedBench(quick);
}
