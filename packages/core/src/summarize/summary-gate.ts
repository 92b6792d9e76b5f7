import { MemSummarizerError } from '../errors/errors.ts';

/**
 * The summary gate: what decides whether a summarizer's output may replace history, or is an
 * error text, a refusal or off topic (then the extractive fallback runs and `summarizer:fallback`
 * says why). Users choose it with the engine's (and the Memory Manager's) `summaryGate` option:
 * - `'default'`: error and refusal texts in the major languages and provider error bodies
 *   (JSON, HTML pages, proxies), credentials the conversation does not hold, and summaries that
 *   are not about the conversation (judged by ids, numbers, names and words it shares with it).
 * - `'errors-only'`: the same without the "about the conversation" check.
 * - `'off'`: no judgement of content.
 * - a function `(summary, context) => verdict`: yours (`context.builtIn('default')` asks a
 *   built-in gate, to extend it rather than replace it).
 * Whatever the gate, a summary must be a non-empty string within the summary's token limit.
 */

/** A gate's verdict. `reason` reads after "the summary": `is about another order`. */
export type SummaryGateVerdict = { usable: true } | { usable: false; reason: string };

/** What a gate function is given besides the summary. */
export interface SummaryGateContext {
  /** The transcript the summarizer was given; empty when the caller did not give one. */
  readonly transcript: string;
  /** The verdict of a built-in gate on this summary. */
  builtIn(gate: 'default' | 'errors-only'): SummaryGateVerdict;
}

/**
 * A summary gate of your own: `true` or `{ usable: true }` lets the summary through; `false` or
 * `{ usable: false, reason }` sends the summarization to the extractive fallback. It must answer
 * synchronously; if it throws or answers anything else, the fallback runs and the
 * `summarizer:fallback` event carries a `MemSummarizerError` that names `summaryGate`.
 */
export type SummaryGateFunction = (
  summary: string,
  context: SummaryGateContext,
) => SummaryGateVerdict | boolean;

export type SummaryGate = 'default' | 'errors-only' | 'off' | SummaryGateFunction;

export const BUILT_IN_SUMMARY_GATES = ['default', 'errors-only', 'off'] as const;

/** Why `value` is not a `SummaryGate`, or undefined when it is. */
export function summaryGateProblem(value: unknown): string | undefined {
  if (typeof value === 'function') return undefined;
  if ((BUILT_IN_SUMMARY_GATES as readonly unknown[]).includes(value)) return undefined;
  return `expected 'default', 'errors-only', 'off' or a function (summary, { transcript }) => ({ usable, reason }); got ${describe(value)}`;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (value instanceof Promise) return 'a Promise (a gate must answer synchronously)';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const json = JSON.stringify(value);
    return json !== undefined && json.length <= 80 ? `the object ${json}` : 'an object';
  }
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : typeof value;
}

/** A user's gate function failed: it threw, or answered something that is no verdict. */
export class SummaryGateError extends MemSummarizerError {
  /** Marks the error as the gate's, not the summarizer's. */
  readonly summaryGate = true;
}

/** The outcome of a user's gate: a verdict, or the `SummaryGateError` saying how it failed. */
export type UserGateOutcome =
  | SummaryGateVerdict
  | { usable: false; reason: string; error: SummaryGateError };

function failed(what: string, cause?: unknown): UserGateOutcome {
  const error = new SummaryGateError(
    `[mem/core] the summaryGate function ${what}. Fix it, or set summaryGate to 'default', 'errors-only' or 'off'`,
    cause === undefined ? {} : { cause },
  );
  return { usable: false, reason: `could not be checked: the summaryGate function ${what}`, error };
}

/** Runs a user's gate on `summary`, turning a throw or a non-verdict into a `SummaryGateError`. */
export function runUserGate(
  gate: SummaryGateFunction,
  summary: string,
  context: SummaryGateContext,
): UserGateOutcome {
  let verdict: unknown;
  try {
    verdict = gate(summary, context);
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return failed(`threw ${message}`, error);
  }
  if (verdict === true) return { usable: true };
  if (verdict === false)
    return { usable: false, reason: 'was rejected by the summaryGate function' };
  if (typeof verdict === 'object' && verdict !== null && !(verdict instanceof Promise)) {
    const { usable, reason } = verdict as { usable?: unknown; reason?: unknown };
    if (usable === true) return { usable: true };
    if (usable === false && typeof reason === 'string' && reason.trim() !== '') {
      return {
        usable: false,
        reason: `was rejected by the summaryGate function: ${reason.trim()}`,
      };
    }
  }
  return failed(
    `returned ${describe(verdict)}, not true, false, { usable: true } or { usable: false, reason: '...' }`,
  );
}
