import { passInput, passInstructions } from './cod-prompts.ts';
import type { SummaryCheck } from './is-usable-summary.ts';
import { raceSignal } from './race-signal.ts';
import {
  callSummarizer,
  runsChainOfDensity,
  type SummarizeOptions,
  type Summarizer,
  type SummarizeUsage,
} from './summarizer.ts';
import type { SummaryGate } from './summary-gate.ts';

export interface SummarizerPassesParams {
  summarizer: Summarizer;
  transcript: string;
  instructions: string | null;
  loops: number;
  targetTokens: number;
  signal: AbortSignal;
  /** Validates one pass's output. */
  check: (output: unknown) => SummaryCheck;
  /** The gate `check` applies, handed to summarizers that check their own passes. */
  summaryGate?: SummaryGate;
  /** Receives every usage report: each model call, or a pass's `usage` when it reported none. */
  onUsage?: (usage: SummarizeUsage) => void;
}

/** Why the passes stopped early. `aborted`: the signal fired (deadline or caller). */
export interface PassFailure {
  kind: 'error' | 'unusable' | 'aborted';
  /** 1-based pass that failed. */
  pass: number;
  /** The thrown value, the abort reason, or why the output was unusable. */
  detail: unknown;
}

export interface SummarizerPassesResult {
  /** The last usable summary and how many passes produced it; null when none was usable. */
  best: { text: string; passes: number } | null;
  failure: PassFailure | null;
  /** Usage summed over every report (model calls, or passes). */
  usage: SummarizeUsage | undefined;
}

interface PassOutput {
  text: unknown;
  usage?: SummarizeUsage;
  passes?: number;
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/** Reads a summarizer's answer: a string, or a `SummarizeResult`-shaped object. */
function readOutput(raw: unknown): PassOutput {
  if (typeof raw !== 'object' || raw === null || !('text' in raw)) return { text: raw };
  const { text, usage, passes } = raw as { text: unknown; usage?: unknown; passes?: unknown };
  const u = usage as Partial<SummarizeUsage> | undefined;
  return {
    text,
    ...(u && isCount(u.inputTokens) && isCount(u.outputTokens)
      ? { usage: { inputTokens: u.inputTokens, outputTokens: u.outputTokens } }
      : {}),
    ...(isCount(passes) && passes >= 1 ? { passes: Math.floor(passes) } : {}),
  };
}

/**
 * Runs the summarizer: one call when it declares `chainOfDensity` (it loops itself), else core's
 * Chain of Density loop of `loops` passes. Stops at the first failing pass and keeps the last
 * usable summary. Never throws.
 */
export async function runSummarizerPasses(
  params: SummarizerPassesParams,
): Promise<SummarizerPassesResult> {
  const { summarizer, transcript, loops, targetTokens, signal } = params;
  const selfLooping = runsChainOfDensity(summarizer);
  const total = selfLooping ? 1 : loops;
  let best: SummarizerPassesResult['best'] = null;
  let failure: PassFailure | null = null;
  let usage: SummarizeUsage | undefined;
  let reported = false;
  const report = (u: SummarizeUsage): void => {
    usage = {
      inputTokens: (usage?.inputTokens ?? 0) + u.inputTokens,
      outputTokens: (usage?.outputTokens ?? 0) + u.outputTokens,
    };
    params.onUsage?.(u);
  };
  const onUsage = (u: SummarizeUsage): void => {
    if (!isCount(u?.inputTokens) || !isCount(u.outputTokens)) return;
    reported = true;
    report(u);
  };

  for (let pass = 1; pass <= total; pass++) {
    const previous = best?.text;
    reported = false;
    const options: SummarizeOptions = {
      signal,
      onUsage,
      instructions: selfLooping
        ? params.instructions
        : passInstructions(params.instructions, pass, loops, targetTokens),
      targetTokens,
      loops,
      ...(previous === undefined ? {} : { previousSummary: previous }),
      ...(params.summaryGate === undefined ? {} : { summaryGate: params.summaryGate }),
    };
    const input = selfLooping ? transcript : passInput(transcript, previous);
    let output: PassOutput;
    try {
      output = readOutput(
        await raceSignal(() => callSummarizer(summarizer, input, options), signal),
      );
    } catch (error) {
      failure = { kind: signal.aborted ? 'aborted' : 'error', pass, detail: error };
      break;
    }
    if (output.usage && !reported) report(output.usage);
    const verdict = params.check(output.text);
    if (!verdict.usable) {
      // A user's summaryGate that failed is an error, not a verdict on the summary.
      failure =
        verdict.error === undefined
          ? { kind: 'unusable', pass, detail: verdict.reason }
          : { kind: 'error', pass, detail: verdict.error };
      break;
    }
    best = { text: verdict.text, passes: selfLooping ? (output.passes ?? loops) : pass };
  }
  return { best, failure, usage };
}
