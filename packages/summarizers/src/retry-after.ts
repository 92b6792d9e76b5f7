/** Response headers as the SDKs expose them: a fetch `Headers` or a plain record. */
export type HeadersLike =
  | { get(name: string): string | null }
  | Record<string, string | string[] | undefined>;

function header(headers: HeadersLike, name: string): string | undefined {
  if (typeof headers.get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The wait a provider asked for, in ms: `retry-after-ms` (OpenAI), else `retry-after` as seconds
 * or as an HTTP-date. `undefined` when absent or unparsable; never negative.
 */
export function parseRetryAfterMs(
  headers: HeadersLike | undefined,
  now: number = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const ms = header(headers, 'retry-after-ms')?.trim();
  if (ms) {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = header(headers, 'retry-after')?.trim();
  if (!after) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
