import type { TokenCounter } from '../../src/tokens/token-counter.ts';
import { looksLikeErrorText } from './error-text.ts';
import { secretsNotIn } from './secret-text.ts';
import { checkGrounding, type SummarySource, summarySource } from './summary-grounding.ts';

/**
 * The verdict on a summary. `reason` is a predicate that reads after "the summary" (or "it"):
 * `is empty`, `looks like an error message or refusal`, `is not about the conversation (...)`.
 */
export type SummaryCheck = { usable: true; text: string } | { usable: false; reason: string };

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

/**
 * Checks a summarizer's output before it may replace history. Usable is a non-empty string that:
 * does not read like an error message, refusal or error page (`looksLikeErrorText`); adds no
 * credential-looking string (`sk-...`) its source does not hold; is about its source
 * (`checkGrounding`: shares names, numbers or content words with it); and is no longer than
 * `originalTokens` and `maxTokens`. A text far over the limit (more than `MAX_CHARS_PER_TOKEN`
 * characters per token) is rejected before it is counted. The usable text is returned trimmed.
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
  if (looksLikeErrorText(text))
    return { usable: false, reason: 'looks like an error message or refusal' };
  if (options.source !== undefined) {
    const source =
      typeof options.source === 'string' ? summarySource(options.source) : options.source;
    if (secretsNotIn(text, source.text).length > 0) {
      return { usable: false, reason: 'holds what looks like an API key or token' };
    }
    const grounding = checkGrounding(text, source);
    if (!grounding.grounded) return { usable: false, reason: grounding.reason };
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
