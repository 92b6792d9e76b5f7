import type { SummaryGate } from './summary-gate.ts';

/** What every summarizer call receives besides its input text. */
export interface SummarizeOptions {
  /** Aborts when the run's deadline passes or the caller cancels. Stop work and reject when it fires. */
  signal: AbortSignal;
  /** The profile's `instructions` plus, for core's Chain of Density loop, the pass's prompt. */
  instructions: string | null;
  /** The summary length to aim for, in tokens. */
  targetTokens: number;
  /** Chain of Density passes (`cod_max_loops`). A `chainOfDensity` summarizer runs them itself. */
  loops: number;
  /**
   * The summary being refined: the previous Chain of Density pass's output (passes 2 and later).
   * Absent on a first pass; an earlier compaction's summary is part of the input transcript.
   */
  previousSummary?: string;
  /**
   * Reports one model call's token usage as it happens (retries and failed passes included).
   * When a summarizer calls it during a pass, core does not count that pass's `usage` again.
   */
  onUsage?: (usage: SummarizeUsage) => void;
  /**
   * The gate core checks every summary with (the engine's `summaryGate`). A summarizer that
   * checks its own passes (Chain of Density) applies the same one, with `checkSummary`.
   */
  summaryGate?: SummaryGate;
}

/** Token usage a summarizer may report. */
export interface SummarizeUsage {
  inputTokens: number;
  outputTokens: number;
  /** The model that spent it, when known (`openai:gpt-4o-mini`). */
  model?: string;
}

/** A summarizer's answer with optional details. */
export interface SummarizeResult {
  text: string;
  usage?: SummarizeUsage;
  /** Chain of Density passes that produced `text`. */
  passes?: number;
}

/** The plain summarizer of SPEC §7. Core runs its own Chain of Density loop around it. */
export type SummarizerFunction = (
  input: string,
  options: SummarizeOptions,
) => Promise<string> | string;

/** What a summarizer object declares it can do. Core checks these; it never uses `instanceof`. */
export interface SummarizerCapabilities {
  /** The object runs the whole Chain of Density loop (`options.loops` passes) in one call. */
  chainOfDensity?: boolean;
}

/**
 * The Summarizer contract's version: a summarizer object declares it, and core refuses an object
 * written for another version. A plain `SummarizerFunction` needs none.
 */
export const SUMMARIZER_SPECIFICATION_VERSION = 'mem.summarizer.v1';

/**
 * A summarizer with optional capabilities (the LLM summarizers of `@mem/summarizers`), contract
 * version 1. Without `chainOfDensity`, core calls `summarize` once per Chain of Density pass.
 */
export interface SummarizerObjectV1 {
  readonly specificationVersion: typeof SUMMARIZER_SPECIFICATION_VERSION;
  summarize(input: string, options: SummarizeOptions): Promise<SummarizeResult | string>;
  readonly capabilities?: SummarizerCapabilities;
}

/** The summarizer object of the version this core speaks. */
export type SummarizerObject = SummarizerObjectV1;

/** A summarizer, contract version 1: a plain function, or a versioned object. */
export type SummarizerV1 = SummarizerFunction | SummarizerObjectV1;
export type Summarizer = SummarizerV1;

/** True when `summarizer` has a `summarize` method (it may also be callable). */
export function isSummarizerObject(summarizer: Summarizer): summarizer is SummarizerObject {
  return typeof (summarizer as Partial<SummarizerObject>).summarize === 'function';
}

/** True when the summarizer runs the Chain of Density loop itself. */
export function runsChainOfDensity(summarizer: Summarizer): boolean {
  return isSummarizerObject(summarizer) && summarizer.capabilities?.chainOfDensity === true;
}

/** Calls a summarizer of either shape once. */
export function callSummarizer(
  summarizer: Summarizer,
  input: string,
  options: SummarizeOptions,
): Promise<SummarizeResult | string> | string {
  return isSummarizerObject(summarizer)
    ? summarizer.summarize(input, options)
    : summarizer(input, options);
}
