import { fmtUs, median, now, printTable } from '@mem/bench-kit';
import {
  countBy,
  type GateCase,
  type GateCorpus,
  type GateCorpusSet,
  loadGateCorpus,
} from '../src/summarize/__fixtures__/gate-corpus/load-gate-corpus.ts';
import { checkSummary } from '../src/summarize/is-usable-summary.ts';
import { summarySource } from '../src/summarize/summary-grounding.ts';
import { checkSummary as checkBefore } from './summary-gate-before/is-usable-summary.ts';
import { summarySource as sourceBefore } from './summary-gate-before/summary-grounding.ts';

/**
 * The summary gate as a classifier (`pnpm bench -- --only=summary-gate`): on each set of the
 * corpus (src/summarize/__fixtures__/gate-corpus), the share of legitimate summaries it rejects
 * and of error or refusal texts it accepts, per language and kind, for the gate before issue 23
 * (a frozen copy of `checkSummary` at d3fd5a8, bench/summary-gate-before/) and now, side by side.
 * Cost: µs per summary checked against a conversation prepared once (as `runSummarizer` does for
 * all passes of a run), now vs before, in interleaved rounds; and µs to prepare a conversation.
 */

type Check = (c: GateCase<string>) => boolean;
interface Gate {
  name: 'before' | 'now';
  usable: Check;
}

const sources = new Map<string, ReturnType<typeof summarySource>>();
const sourcesBefore = new Map<string, ReturnType<typeof sourceBefore>>();
const prepared = <T>(cache: Map<string, T>, prepare: (t: string) => T, transcript: string): T => {
  let source = cache.get(transcript);
  if (source === undefined) {
    source = prepare(transcript);
    cache.set(transcript, source);
  }
  return source;
};
const GATES: Gate[] = [
  {
    name: 'before',
    usable: (c) =>
      checkBefore(c.text, { source: prepared(sourcesBefore, sourceBefore, c.transcript) }).usable,
  },
  {
    name: 'now',
    usable: (c) =>
      checkSummary(c.text, { source: prepared(sources, summarySource, c.transcript) }).usable,
  },
];

const pct = (n: number, of: number) => (of === 0 ? '-' : `${((100 * n) / of).toFixed(1)} %`);

export interface GateRates {
  set: GateCorpusSet;
  legit: number;
  errors: number;
  rejectedBefore: number;
  rejectedNow: number;
  acceptedBefore: number;
  acceptedNow: number;
}

function rates(set: GateCorpusSet, corpus: GateCorpus): GateRates {
  const [before, current] = GATES as [Gate, Gate];
  return {
    set,
    legit: corpus.legit.length,
    errors: corpus.errors.length,
    rejectedBefore: corpus.legit.filter((c) => !before.usable(c)).length,
    rejectedNow: corpus.legit.filter((c) => !current.usable(c)).length,
    acceptedBefore: corpus.errors.filter(before.usable).length,
    acceptedNow: corpus.errors.filter(current.usable).length,
  };
}

/** One row per value of `key`: how many cases, and the wrong verdicts before and now. */
function breakdown(
  cases: GateCase<string>[],
  key: (c: GateCase<string>) => string,
  wrong: (gate: Gate, c: GateCase<string>) => boolean,
  label: string,
) {
  const [before, current] = GATES as [Gate, Gate];
  return Object.entries(countBy(cases, key))
    .sort((a, b) => b[1] - a[1])
    .map(([value, n]) => {
      const group = cases.filter((c) => key(c) === value);
      const was = group.filter((c) => wrong(before, c)).length;
      const is = group.filter((c) => wrong(current, c)).length;
      return { [label]: value, cases: n, before: pct(was, n), now: pct(is, n) };
    });
}

function timeNsPerCase(gate: Gate, cases: GateCase<string>[], reps: number): number {
  let sink = 0;
  const t0 = now();
  for (let r = 0; r < reps; r++) for (const c of cases) sink += gate.usable(c) ? 1 : 0;
  const ns = Number(now() - t0) / (reps * cases.length);
  return sink < 0 ? -1 : ns;
}

export function runSummaryGateBench(quick: boolean) {
  const main = loadGateCorpus('main');
  const rejected = (gate: Gate, c: GateCase<string>) => !gate.usable(c);
  const accepted = (gate: Gate, c: GateCase<string>) => gate.usable(c);
  printTable(
    'Summary gate corpus (main): legitimate summaries wrongly rejected, per conversation language',
    breakdown(main.legit, (c) => c.conversationLanguage, rejected, 'language'),
  );
  printTable(
    'Summary gate corpus (main): legitimate summaries wrongly rejected, per kind',
    breakdown(main.legit, (c) => c.kind, rejected, 'kind'),
  );
  printTable(
    'Summary gate corpus (main): error and refusal texts wrongly accepted, per language of the text',
    breakdown(main.errors, (c) => c.language, accepted, 'language'),
  );
  printTable(
    'Summary gate corpus (main): error and refusal texts wrongly accepted, per kind',
    breakdown(main.errors, (c) => c.kind, accepted, 'kind'),
  );
  const sets: GateCorpusSet[] = ['main', 'held-out', 'held-out-2', 'held-out-3', 'held-out-4'];
  const all = sets.map((set) => rates(set, set === 'main' ? main : loadGateCorpus(set)));
  printTable(
    'Summary gate: the two error rates, before (d3fd5a8) and now, per corpus set',
    all.map((r) => ({
      set: r.set,
      legit: r.legit,
      'rejected before': pct(r.rejectedBefore, r.legit),
      'rejected now': pct(r.rejectedNow, r.legit),
      'goal ≤': '0.5 %',
      errors: r.errors,
      'accepted before': pct(r.acceptedBefore, r.errors),
      'accepted now': pct(r.acceptedNow, r.errors),
      'goal ≤ ': '2 %',
    })),
  );

  // Cost: every case of the main set, its conversation prepared once (warm), interleaved rounds.
  const cases: GateCase<string>[] = [...main.legit, ...main.errors];
  const rounds = quick ? 5 : 15;
  const reps = quick ? 2 : 5;
  const [before, current] = GATES as [Gate, Gate];
  timeNsPerCase(before, cases, 1);
  timeNsPerCase(current, cases, 1);
  const beforeNs: number[] = [];
  const nowNs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? [current, before] : [before, current];
    for (const gate of order) {
      (gate === current ? nowNs : beforeNs).push(timeNsPerCase(gate, cases, reps));
    }
  }
  const transcripts = [...new Set(cases.map((c) => c.transcript))];
  const prepare = (fn: (t: string) => unknown) => {
    const t0 = now();
    for (let r = 0; r < reps; r++) for (const t of transcripts) fn(t);
    return Number(now() - t0) / (reps * transcripts.length);
  };
  const prepareBeforeNs = median(Array.from({ length: rounds }, () => prepare(sourceBefore)));
  const prepareNowNs = median(Array.from({ length: rounds }, () => prepare(summarySource)));
  const cost = {
    perSummaryUsBefore: median(beforeNs) / 1e3,
    perSummaryUsNow: median(nowNs) / 1e3,
    prepareUsBefore: prepareBeforeNs / 1e3,
    prepareUsNow: prepareNowNs / 1e3,
  };
  printTable('Summary gate: cost (main set, median of interleaved rounds)', [
    {
      measure: `per summary checked (${cases.length} texts, conversation prepared)`,
      before: fmtUs(cost.perSummaryUsBefore),
      now: fmtUs(cost.perSummaryUsNow),
    },
    {
      measure: `per conversation prepared (${transcripts.length} transcripts)`,
      before: fmtUs(cost.prepareUsBefore),
      now: fmtUs(cost.prepareUsNow),
    },
  ]);
  return {
    counts: {
      legitByLanguage: countBy(main.legit, (c) => c.conversationLanguage),
      legitByKind: countBy(main.legit, (c) => c.kind),
      crossLanguage: main.legit.filter((c) => c.language !== c.conversationLanguage).length,
      errorsByLanguage: countBy(main.errors, (c) => c.language),
      errorsByKind: countBy(main.errors, (c) => c.kind),
    },
    rates: all,
    cost,
  };
}
