/**
 * Finds the one JSON object in a model's reply. Models wrap JSON in a ```json fence or put a
 * sentence before or after it; both are tolerated. Anything else — no object, two objects, an
 * array, broken JSON — is malformed.
 */

export type JsonObjectResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: Error };

/** Index just past the `}` closing the object that opens at `start`, or -1 if it never closes. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === '{') {
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function parseObject(candidate: string): Record<string, unknown> | SyntaxError {
  try {
    const value: unknown = JSON.parse(candidate);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    return new SyntaxError('not a JSON object');
  } catch (error) {
    return error instanceof SyntaxError ? error : new SyntaxError(String(error));
  }
}

/**
 * The single JSON object in `text`. Every balanced `{...}` span that parses as JSON counts; a
 * span that does not parse (a brace in prose) is skipped and scanning resumes inside it.
 */
export function extractJsonObject(text: string): JsonObjectResult {
  if (text.trim().length === 0) return { ok: false, error: new Error('empty reply') };
  const found: Record<string, unknown>[] = [];
  let firstFailure: SyntaxError | undefined;
  let i = text.indexOf('{');
  while (i !== -1) {
    const end = objectEnd(text, i);
    const parsed =
      end === -1 ? new SyntaxError('unterminated JSON object') : parseObject(text.slice(i, end));
    if (parsed instanceof SyntaxError) {
      firstFailure ??= parsed;
      i = text.indexOf('{', i + 1);
    } else {
      found.push(parsed);
      i = text.indexOf('{', end);
    }
  }
  const [only] = found;
  if (found.length === 1 && only !== undefined) return { ok: true, value: only };
  if (found.length > 1) {
    return {
      ok: false,
      error: new Error(`${found.length} JSON objects in the reply; expected one`),
    };
  }
  const reason = firstFailure ? `invalid JSON: ${firstFailure.message}` : 'no JSON object';
  return { ok: false, error: new SyntaxError(`${reason} in the reply`, { cause: firstFailure }) };
}
