import type { TokenCounter } from '../tokens/token-counter.ts';
import { looksLikeErrorText } from './error-text.ts';
import { secretsNotIn } from './secret-text.ts';
import {
  runUserGate,
  type SummaryGate,
  type SummaryGateError,
  type SummaryGateVerdict,
} from './summary-gate.ts';
import { checkGrounding, type SummarySource, summarySource } from './summary-grounding.ts';

/**
 * The verdict on a summary. `reason` is a predicate that reads after "the summary" (or "it"):
 * `is empty`, `looks like an error message or refusal`, `is not about the conversation (...)`.
 */
export type SummaryCheck =
  | { usable: true; text: string }
  | {
      usable: false;
      reason: string;
      /** Set when a `summaryGate` function failed (threw, or answered no verdict). */
      error?: SummaryGateError;
    };

export interface SummaryCheckOptions {
  /**
   * The transcript the summarizer was given (or `summarySource(transcript)`, prepared once for
   * many checks). A summary must be about it, and must not add a credential it does not hold.
   * Without it, neither is checked.
   */
  source?: string | SummarySource;
  /** Counts the summary's tokens. Without it (or without a limit below), length is not checked. */
  counter?: TokenCounter;
  /** Tokens of what is summarized: a summary must not be longer. */
  originalTokens?: number;
  /** The most tokens a summary may have (the engine's `maxSummaryTokens`, or half the window). */
  maxTokens?: number;
  /** Which gate judges the content (see `SummaryGate`). Default `'default'`. */
  gate?: SummaryGate;
}

/**
 * A text more than this many characters per allowed token is rejected without being counted:
 * real text averages about 4, and even long ids, URLs or CJK stay far below.
 */
export const MAX_CHARS_PER_TOKEN = 16;

/** The token limit of `options`: the smaller of `originalTokens` and `maxTokens`. */
function tokenLimit(options: SummaryCheckOptions): number {
  return Math.min(
    options.originalTokens ?? Number.POSITIVE_INFINITY,
    options.maxTokens ?? Number.POSITIVE_INFINITY,
  );
}

/** A built-in gate's verdict on `text` (trimmed, non-empty). */
function builtInVerdict(
  gate: 'default' | 'errors-only',
  text: string,
  source: SummarySource | undefined,
): SummaryGateVerdict {
  if (looksLikeErrorText(text, source))
    return { usable: false, reason: 'looks like an error message or refusal' };
  if (source === undefined) return { usable: true };
  if (secretsNotIn(text, source.text).length > 0) {
    return { usable: false, reason: 'holds what looks like an API key or token' };
  }
  if (gate === 'errors-only') return { usable: true };
  const grounding = checkGrounding(text, source);
  return grounding.grounded ? { usable: true } : { usable: false, reason: grounding.reason };
}

/**
 * Checks a summarizer's output before it may replace history. Usable is a non-empty string
 * within `originalTokens` and `maxTokens` (a text of more than `MAX_CHARS_PER_TOKEN` characters
 * per token is rejected before it is counted) that the gate lets through (`options.gate`, see
 * `SummaryGate`). The default gate rejects text that reads like an error message, refusal or
 * error page in any of the major languages (`looksLikeErrorText`), that adds a credential-looking
 * string (`sk-...`) its source does not hold, or that is not about its source
 * (`checkGrounding`). The usable text is returned trimmed.
 */
export function checkSummary(output: unknown, options: SummaryCheckOptions = {}): SummaryCheck {
  if (typeof output !== 'string')
    return { usable: false, reason: `is not a string (${typeof output})` };
  const limit = tokenLimit(options);
  if (output.length > limit * MAX_CHARS_PER_TOKEN) {
    return {
      usable: false,
      reason: `is far longer than the ${limit}-token limit (${output.length} characters)`,
    };
  }
  const text = output.trim();
  if (text.length === 0) return { usable: false, reason: 'is empty' };
  const gate = options.gate ?? 'default';
  if (gate !== 'off') {
    const source =
      typeof options.source === 'string' ? summarySource(options.source) : options.source;
    const verdict =
      typeof gate === 'function'
        ? runUserGate(gate, text, {
            transcript: source?.text ?? '',
            builtIn: (name) => builtInVerdict(name, text, source),
          })
        : builtInVerdict(gate, text, source);
    if (!verdict.usable) return verdict;
  }
  if (options.counter !== undefined && Number.isFinite(limit)) {
    const tokens = options.counter.countText(text);
    if (tokens > limit) {
      const what = limit === options.maxTokens ? 'the summary limit' : 'what it summarizes';
      return { usable: false, reason: `is longer than ${what} (${tokens} > ${limit} tokens)` };
    }
  }
  return { usable: true, text };
}

/** True when `checkSummary` accepts `output`. */
export function isUsableSummary(
  output: unknown,
  options: SummaryCheckOptions = {},
): output is string {
  return checkSummary(output, options).usable;
}
