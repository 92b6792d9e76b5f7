/**
 * Error text by its shape: what providers, SDKs, proxies and runtimes answer instead of a
 * summary. A first, cheap line of defence; `checkGrounding` catches the wordings not listed here.
 */

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
  /^(?:HTTP(?:\/[\d.]+)?\s+)?[45]\d\d\s+[A-Z]/,
  /^HTTP(?:\/[\d.]+)?\s+[45]\d\d\b/i,
  /^(?:rate limit(?:ed)?|quota exceeded|too many requests|request timed out|internal server error|service unavailable|bad gateway|gateway timeout)\b/i,
  // fetch (Node, browsers), axios, the OpenAI and Anthropic SDKs, Envoy, Node's socket errors.
  /^(?:fetch failed|failed to fetch|network ?error|load failed|socket hang up)\b/i,
  /^request failed with status code\b/i,
  /^(?:api )?connection error\b/i,
  /^(?:the )?server had an error\b/i,
  /^(?:incorrect|invalid|missing) (?:api[ _-]?key|x-api-key|authentication|auth token)\b/i,
  /^(?:upstream (?:connect error|request timeout)|no healthy upstream)\b/i,
  /^your credit balance is too low\b/i,
  /^(?:connect|read|write|getaddrinfo|request to \S+ failed, reason:)\s+E[A-Z]{4,}\b/i,
  /^E(?:CONNREFUSED|CONNRESET|CONNABORTED|TIMEDOUT|HOSTUNREACH|NETUNREACH|NOTFOUND|PIPE|AI_AGAIN)\b/,
  /^(?:the )?(?:service|server|model|api) is (?:temporarily |currently )?(?:unavailable|overloaded|down)\b/i,
  /^(?:overloaded|unauthorized|forbidden|not found)\s*[.!]?$/i,
];
const PLACEHOLDER = /^(?:undefined|null|none|nan|\[object \w+\])$/i;
/** Keys of JSON error bodies: `{"error": ...}`, FastAPI's `{"detail": "..."}`. */
const ERROR_KEYS = ['error', 'errors', 'err', 'exception', 'detail'];
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
