import type { TokenCounter } from '../tokens/token-counter.ts';

export type SummaryCheck = { usable: true; text: string } | { usable: false; reason: string };

/** Openings of error messages, refusals, error pages and placeholder values. */
const ERROR_OPENINGS: readonly RegExp[] = [
  /^[\w.$]*(?:error|exception)(?:\s*[:[(]|\s*$|\s+\d{3}\b|\s+(?:occurred|in|while|when|code)\b)/i,
  /^traceback\b/i,
  /^(?:fatal|panic)\s*:/i,
  /^(?:i'?m|i am)\s+(?:sorry|unable|not able)\b/i,
  /^(?:unfortunately,?\s+)?i\s+(?:cannot|can'?t|can not|won'?t|will not|am unable)\b/i,
  /^sorry\b/i,
  /^as an ai\b/i,
  /^<(?:!doctype\s+html|html|head|body)\b/i,
  /^(?:HTTP\/[\d.]+\s+)?[45]\d\d\s+[A-Z]/,
  /^(?:rate limit(?:ed)?|quota exceeded|too many requests|request timed out|internal server error|service unavailable|bad gateway|gateway timeout)\b/i,
];
const PLACEHOLDER = /^(?:undefined|null|none|nan|\[object \w+\])$/i;
const ERROR_KEYS = ['error', 'errors', 'err', 'exception'];
const MAX_JSON_CHECK_CHARS = 100_000;

function isJsonError(text: string): boolean {
  if (!text.startsWith('{') || text.length > MAX_JSON_CHECK_CHARS) return false;
  try {
    const value: unknown = JSON.parse(text);
    return (
      typeof value === 'object' &&
      value !== null &&
      ERROR_KEYS.some((k) => k in value && (value as Record<string, unknown>)[k] != null)
    );
  } catch {
    return false;
  }
}

/** True when `text` reads like an error message, a refusal, an error page or a JSON error object. */
export function looksLikeErrorText(text: string): boolean {
  const start = text.trimStart();
  return (
    PLACEHOLDER.test(start.trim()) ||
    ERROR_OPENINGS.some((re) => re.test(start)) ||
    isJsonError(start.trim())
  );
}

/**
 * Checks a summarizer's output before it may replace history: a non-empty string, no longer (in
 * tokens) than the `originalTokens` it summarizes, and not an error message or refusal. The
 * usable text is returned trimmed.
 */
export function checkSummary(
  output: unknown,
  options: { counter: TokenCounter; originalTokens: number },
): SummaryCheck {
  if (typeof output !== 'string')
    return { usable: false, reason: `not a string (${typeof output})` };
  const text = output.trim();
  if (text.length === 0) return { usable: false, reason: 'empty' };
  if (looksLikeErrorText(text))
    return { usable: false, reason: 'looks like an error message or refusal' };
  const tokens = options.counter.countText(text);
  if (tokens > options.originalTokens) {
    return {
      usable: false,
      reason: `longer than what it summarizes (${tokens} > ${options.originalTokens} tokens)`,
    };
  }
  return { usable: true, text };
}

/** True when `checkSummary` accepts `output`. */
export function isUsableSummary(
  output: unknown,
  options: { counter: TokenCounter; originalTokens: number },
): output is string {
  return checkSummary(output, options).usable;
}
