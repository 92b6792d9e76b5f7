import { MemSummarizerError, MemValidationError } from '../errors/errors.ts';
import type { Message } from '../model/message.ts';
import type { TokenCounter } from '../tokens/token-counter.ts';
import { extractiveSummary } from './extractive-summarizer.ts';
import { checkSummary } from './is-usable-summary.ts';
import { renderTranscript } from './render-transcript.ts';
import type { Summarizer, SummarizeUsage } from './summarizer.ts';
import { type PassFailure, runSummarizerPasses } from './summarizer-passes.ts';
import { type SummaryGate, SummaryGateError, summaryGateProblem } from './summary-gate.ts';
import { summarySource } from './summary-grounding.ts';

export interface RunSummarizerParams {
  /** Absent: the extractive summary is used (`fallbackReason: 'none-configured'`). */
  summarizer?: Summarizer;
  /** The history to summarize, oldest first (earlier summary messages included). */
  messages: readonly Message[];
  /** The earlier compaction's summary text, folded into the new one. */
  previousSummary?: string;
  instructions: string | null;
  /** Chain of Density passes (`cod_max_loops`), at least 1. */
  loops: number;
  targetTokens: number;
  /** Deadline of the whole run in ms; null = unbounded. */
  timeoutMs: number | null;
  /** The caller's cancellation. */
  signal?: AbortSignal;
  counter: TokenCounter;
  /** Receives each usage report as it happens (see `SummarizeOptions.onUsage`). */
  onUsage?: (usage: SummarizeUsage) => void;
  /** Tokens of `messages`; a summary longer than this is unusable. */
  originalTokens: number;
  /** The most tokens a summary may have (e.g. the engine's `maxSummaryTokens`); longer is unusable. */
  maxTokens?: number;
  /** The gate every pass's summary must pass (see `SummaryGate`). Default `'default'`. */
  summaryGate?: SummaryGate;
}

export type FallbackReason = 'none-configured' | 'timeout' | 'error' | 'unusable' | 'aborted';

export interface SummaryOutcome {
  /** The summary: the summarizer's, or the extractive fallback's. Never an error message. */
  text: string;
  source: 'summarizer' | 'fallback';
  /** Why the fallback ran (source `fallback` only). */
  fallbackReason?: FallbackReason;
  /**
   * What happened, in a sentence (source `fallback` only): e.g. `summarizer returned unusable
   * output on pass 1 of 5: the summary is not about the conversation (0 of its 6 terms occur
   * there); the extractive summary was used.`
   */
  fallbackDetail?: string;
  /**
   * A `MemSummarizerError` (with `cause`) describing the failure: the reason for a fallback, or a
   * later Chain of Density pass that failed after an earlier one succeeded.
   */
  error?: unknown;
  /** Summarizer passes that produced `text` (0 for the fallback). */
  passes: number;
  usage?: SummarizeUsage;
  durationMs: number;
}

const PREFIX = '[mem/core] ';

/** setTimeout's limit; a longer deadline is treated as none. */
const MAX_TIMEOUT_MS = 2_147_483_647;

function invalid(field: string, expected: string, got: unknown): never {
  throw new MemValidationError(
    field,
    `[mem/core] runSummarizer: ${field} must be ${expected}, got ${typeof got === 'number' ? got : typeof got}`,
  );
}

function validate(p: RunSummarizerParams): void {
  if (!Array.isArray(p.messages)) invalid('messages', 'an array of messages', p.messages);
  if (!Number.isInteger(p.loops) || p.loops < 1) invalid('loops', 'an integer >= 1', p.loops);
  if (!(p.targetTokens > 0) || !Number.isFinite(p.targetTokens)) {
    invalid('targetTokens', 'a positive number', p.targetTokens);
  }
  if (p.timeoutMs !== null && (typeof p.timeoutMs !== 'number' || !(p.timeoutMs > 0))) {
    invalid('timeoutMs', 'a positive number of milliseconds or null', p.timeoutMs);
  }
  if (!(p.originalTokens >= 0) || !Number.isFinite(p.originalTokens)) {
    invalid('originalTokens', 'a number >= 0', p.originalTokens);
  }
  if (p.maxTokens !== undefined && !(p.maxTokens > 0)) {
    invalid('maxTokens', 'a positive number', p.maxTokens);
  }
  if (p.instructions !== null && typeof p.instructions !== 'string') {
    invalid('instructions', 'a string or null', p.instructions);
  }
  if (typeof p.counter?.countText !== 'function') invalid('counter', 'a TokenCounter', p.counter);
  if (p.summaryGate !== undefined) {
    const problem = summaryGateProblem(p.summaryGate);
    if (problem !== undefined) {
      throw new MemValidationError(
        'summaryGate',
        `[mem/core] runSummarizer: summaryGate: ${problem}.`,
      );
    }
  }
  const s = p.summarizer as unknown;
  const shaped =
    s === undefined ||
    typeof s === 'function' ||
    (typeof s === 'object' &&
      s !== null &&
      typeof (s as { summarize?: unknown }).summarize === 'function');
  if (!shaped) invalid('summarizer', 'a function or an object with summarize()', s);
}

type FailureCause = Exclude<FallbackReason, 'none-configured'>;

/**
 * True when a summarizer threw because it judged its own output unusable: the error, or one in
 * its `cause` chain, has `unusable: true` (how a self-looping summarizer such as Chain of
 * Density says its reply failed `checkSummary`).
 */
function declaresUnusable(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { unusable?: unknown }).unusable === true) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The failure's cause: an abort is a timeout unless the caller's own signal fired. */
function causeOf(failure: PassFailure, callerSignal: AbortSignal | undefined): FailureCause {
  if (failure.kind === 'error' && declaresUnusable(failure.detail)) return 'unusable';
  if (failure.kind !== 'aborted') return failure.kind;
  return callerSignal?.aborted ? 'aborted' : 'timeout';
}

/** A failure's detail as text: a thrown error's message, or a check's reason as a sentence. */
function detailText(failure: PassFailure): string {
  if (failure.detail instanceof Error) return failure.detail.message;
  // A checkSummary reason is a predicate: "is empty", "is not about the conversation (...)".
  if (failure.kind === 'unusable' && typeof failure.detail === 'string') {
    return `the summary ${failure.detail}`;
  }
  return String(failure.detail);
}

function failureError(
  failure: PassFailure,
  cause: FailureCause,
  kept: boolean,
  params: RunSummarizerParams,
): MemSummarizerError {
  const where = `pass ${failure.pass} of ${params.loops}`;
  const outcome = kept ? 'the last usable pass was kept' : 'the extractive summary was used';
  if (failure.detail instanceof SummaryGateError) {
    // The user's gate failed, not the summarizer: its message says what to do.
    const [happened, advice] = failure.detail.message.replace(PREFIX, '').split('. Fix it');
    return new MemSummarizerError(
      `${PREFIX}${happened} (on ${where}); ${outcome}. Fix it${advice ?? ''}.`,
      { cause: failure.detail },
    );
  }
  const detail = detailText(failure);
  const what: Record<FailureCause, [string, string]> = {
    timeout: [
      `summarizer timed out after ${params.timeoutMs} ms (${where})`,
      'Raise the summarizer timeout or use a faster model.',
    ],
    aborted: [`summarization was aborted by the caller (${where})`, ''],
    unusable: [
      `summarizer returned unusable output on ${where}: ${detail}`,
      'Check the model and its instructions.',
    ],
    error: [`summarizer failed on ${where}: ${detail}`, 'Check the summarizer and its provider.'],
  };
  const [happened, advice] = what[cause];
  return new MemSummarizerError(
    `[mem/core] ${happened}; ${outcome}.${advice ? ` ${advice}` : ''}`,
    {
      cause: failure.detail,
    },
  );
}

/**
 * Summarizes `messages` with the configured summarizer — core's Chain of Density loop around a
 * plain function, or one call to a `chainOfDensity` object — bounded by `timeoutMs` through the
 * `AbortSignal` it is given. When there is no summarizer, or it times out, throws, is aborted, or
 * returns unusable output (see `checkSummary`: empty, error text or a refusal, a credential, not
 * about the transcript, longer than the original or `maxTokens`), the
 * extractive summary is returned instead and `fallbackReason` says why; if an earlier pass was
 * usable, that pass is kept. Resolves by the deadline even if the summarizer ignores the signal.
 * Never rejects, except with `MemValidationError` for invalid params.
 */
export async function runSummarizer(params: RunSummarizerParams): Promise<SummaryOutcome> {
  validate(params);
  const started = performance.now();
  const { summarizer, messages, counter, targetTokens, loops, timeoutMs } = params;
  const previous =
    params.previousSummary === undefined ? {} : { previousSummary: params.previousSummary };
  const fallback = (
    reason: FallbackReason,
    extra: Partial<SummaryOutcome> = {},
  ): SummaryOutcome => ({
    text: extractiveSummary(messages, {
      targetTokens: Math.min(targetTokens, params.maxTokens ?? targetTokens),
      counter,
      ...previous,
    }),
    source: 'fallback',
    fallbackReason: reason,
    ...extra,
    passes: 0,
    durationMs: performance.now() - started,
  });

  if (summarizer === undefined) {
    return fallback('none-configured', {
      fallbackDetail: 'no summarizer is configured; the extractive summary was used.',
    });
  }
  if (params.signal?.aborted) {
    const failure: PassFailure = { kind: 'aborted', pass: 1, detail: params.signal.reason };
    const error = failureError(failure, 'aborted', false, params);
    return fallback('aborted', { error, fallbackDetail: error.message.replace(PREFIX, '') });
  }
  const deadline =
    timeoutMs === null || timeoutMs > MAX_TIMEOUT_MS ? null : AbortSignal.timeout(timeoutMs);
  const signals = [params.signal, deadline].filter((s): s is AbortSignal => s != null);
  const signal = signals.length === 0 ? new AbortController().signal : AbortSignal.any(signals);

  const transcript = renderTranscript(messages, previous);
  const source = summarySource(transcript);
  const gate = params.summaryGate === undefined ? {} : { summaryGate: params.summaryGate };
  const limits = {
    counter,
    originalTokens: params.originalTokens,
    ...(params.maxTokens === undefined ? {} : { maxTokens: params.maxTokens }),
  };
  const { best, failure, usage } = await runSummarizerPasses({
    summarizer,
    transcript,
    instructions: params.instructions,
    loops,
    targetTokens,
    signal,
    check: (output) =>
      checkSummary(output, { ...limits, source, gate: params.summaryGate ?? 'default' }),
    ...gate,
    ...(params.onUsage === undefined ? {} : { onUsage: params.onUsage }),
  });
  const spent = usage === undefined ? {} : { usage };
  if (best !== null) {
    return {
      text: best.text,
      source: 'summarizer',
      passes: best.passes,
      ...(failure === null
        ? {}
        : { error: failureError(failure, causeOf(failure, params.signal), true, params) }),
      ...spent,
      durationMs: performance.now() - started,
    };
  }
  const f = failure ?? { kind: 'unusable' as const, pass: 1, detail: 'is missing (no output)' };
  const cause = causeOf(f, params.signal);
  const error = failureError(f, cause, false, params);
  return fallback(cause, { error, fallbackDetail: error.message.replace(PREFIX, ''), ...spent });
}
