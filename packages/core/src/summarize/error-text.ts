import { ERROR_PHRASES, foldForPhrase, unsaidPhrase } from './error-phrases.ts';
import { REFUSAL_PHRASES } from './refusal-phrases.ts';
import { declinesToSummarize, refusesRequest, talksOfSummarizing } from './summarizing-talk.ts';

/**
 * Error text: what providers, SDKs, proxies and runtimes answer instead of a summary, and how
 * models refuse. Judged by shape (an error's opening, a JSON error body, an HTML page, a stack
 * trace) and by what it says in any of the major languages (`error-phrases.ts`,
 * `refusal-phrases.ts`), wherever it says it: an error that quotes the conversation is still an
 * error. A phrase the conversation itself says is no sign (a chat about an error page).
 */

/** Openings of error messages, error pages and placeholder values, in any language. */
const ERROR_OPENINGS: readonly RegExp[] = [
  /^(?:error|exception)(?:\s*[:[(]|\s*$|\s+\d{3,4}\b|\s+(?:occurred|in|while|when|code)\b)/i,
  // A named error or exception opens an error only with its message: `TypeError: ...`.
  /^[\w.$]+(?:error|exception)(?:\s*[:[(]|\s*$|\s+\d{3}\b|\s+in thread\b)/i,
  /^(?:erreur|fehler|errore|erro|fout|hata|błąd|ошибка|エラー|错误|錯誤|오류|خطأ|שגיאה|त्रुटि)\s*(?:\d{3,4}\s*)?[:：]/iu,
  /^(?:request|requête|anfrage|solicitud|requisição|richiesta|запрос|リクエスト|请求|요청)\s*(?:failed|échouée|fehlgeschlagen|fallida|falhou|fallita|не удался|失敗|失败|실패)/iu,
  /^(?:invalid|bad|malformed|unprocessable) (?:request|input|parameter|argument|json)s?\b/i,
  /^(?:content|request|prompt|message|input) (?:blocked|rejected|denied|filtered|flagged)\b/i,
  /^<\?xml[^>]*>\s*<(?:error|errors|fault|exception)\b/i,
  /^traceback\b/i,
  /^(?:fatal|panic)\s*:/i,
  /^(?:i'?m|i am)\s+(?:unable|not able)\b/i,
  /^(?:unfortunately,?\s+)?i\s+(?:cannot|can'?t|can not|won'?t|will not|am unable)\b/i,
  /^<(?:!doctype\s+html|html|head|body|title|h1|center|!--)/i,
  /^(?:HTTP(?:\/[\d.]+)?\s+)?[45]\d\d\s+[A-Z]/,
  /^HTTP(?:\/[\d.]+)?\s+[45]\d\d\b/i,
  /^(?:rate limit(?:ed)?|quota exceeded|too many requests|request timed out|internal server error|service unavailable|bad gateway|gateway time-?out)\b/i,
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
/** Shapes that give an error away wherever they stand. */
const ERROR_ANYWHERE: readonly RegExp[] = [
  /<(?:!doctype\s+html|html[\s>])|<\/html>/i,
  /\n\s+at [\w.<>$[\] ]+ \(?[^\n()]*:\d+:\d+\)?/,
  /\bcloudflare ray id\b|\battention required! \| cloudflare\b/i,
  /"type"\s*:\s*"(?:error|invalid_request_error|rate_limit_error|overloaded_error|api_error|authentication_error|permission_error|not_found_error)"/,
];
/** A conversation prepared for phrase lookups (`summarySource` gives one). */
export interface PhraseSource {
  /** The conversation folded by `foldForPhrase`. */
  readonly folded: string;
  /** Whether the conversation itself speaks of summaries (`talksOfSummarizing`). */
  readonly aboutSummaries?: boolean;
  /** Whether the conversation itself tells someone their request failed (`refusesRequest`). */
  readonly refusesRequest?: boolean;
}

const PLACEHOLDER = /^(?:undefined|null|none|nan|\[object \w+\])$/i;
/**
 * Keys of JSON error bodies, some localized: `{"error": ...}`, FastAPI's `{"detail": ...}`,
 * `errcode`, `errorMessage`, `fehler`, `erreur`.
 */
const ERROR_KEY = String.raw`err[a-z_]*|error[a-z_]*|exception|detail|fault|fehler|erreur|erro|errore`;
/** Keys whose value says how a request ended: an error when it is `error` or a 4xx/5xx code. */
const STATUS_KEYS = /^(?:status|statut|estado|stato|state|result|code|statusCode|status_code)$/i;
/** A JSON object that names an error key near its start, parsed or not (a truncated body). */
const JSON_ERROR_KEY = new RegExp(`^[{[][^]{0,300}?"(?:${ERROR_KEY})"\\s*:`, 'i');
const MAX_JSON_CHECK_CHARS = 100_000;

function isErrorStatus(value: unknown): boolean {
  const n = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
  if (typeof n === 'number') return n >= 400 && n < 600;
  return (
    typeof value === 'string' &&
    /^(?:error|erreur|fehler|errore|erro|fail(?:ed|ure)?)$/i.test(value)
  );
}

function isJsonError(text: string): boolean {
  if (!/^[{[]/.test(text)) return false;
  if (JSON_ERROR_KEY.test(text)) return true;
  if (text.length > MAX_JSON_CHECK_CHARS) return false;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return false;
    return Object.entries(value).some(([k, v]) => STATUS_KEYS.test(k) && isErrorStatus(v));
  } catch {
    return false;
  }
}

/** Whether `text` has the shape of an error: opening, JSON error, HTML page, stack trace. */
function hasErrorShape(text: string): boolean {
  const start = text.trimStart();
  return (
    PLACEHOLDER.test(start.trim()) ||
    ERROR_OPENINGS.some((re) => re.test(start)) ||
    ERROR_ANYWHERE.some((re) => re.test(start)) ||
    isJsonError(start.trim())
  );
}

/**
 * What gives `text` away as an error or a refusal, or undefined: `shape` (an error's opening,
 * JSON error body, HTML page, stack trace), `error` (it says something failed or to try again)
 * or `refusal` (a model declines, a provider blocked the request). With `source` (the
 * conversation), a phrase the conversation says itself does not count.
 */
export function errorSign(
  text: string,
  source?: string | PhraseSource,
): 'shape' | 'error' | 'refusal' | undefined {
  if (hasErrorShape(text)) return 'shape';
  const folded = typeof source === 'string' ? foldForPhrase(source) : source?.folded;
  if (unsaidPhrase(text, ERROR_PHRASES, folded) !== undefined) return 'error';
  if (unsaidPhrase(text, REFUSAL_PHRASES, folded) !== undefined) return 'refusal';
  const aboutSummaries =
    typeof source === 'object' && source.aboutSummaries !== undefined
      ? source.aboutSummaries
      : folded !== undefined && talksOfSummarizing(folded);
  if (!aboutSummaries && declinesToSummarize(text)) return 'refusal';
  const requestRefused =
    typeof source === 'object' && source.refusesRequest !== undefined
      ? source.refusesRequest
      : refusesRequest(folded ?? '');
  if (!requestRefused && refusesRequest(text)) return 'refusal';
  return undefined;
}

/**
 * True when `text` reads like an error message, a refusal, an error page or a JSON error object,
 * in any of the major languages. With `source`, phrases the conversation says itself are no sign.
 */
export function looksLikeErrorText(text: string, source?: string | PhraseSource): boolean {
  return errorSign(text, source) !== undefined;
}
