/**
 * How far mem's counts are from what the provider billed, per model: each `append(..., { usage })`
 * compares the provider's `inputTokens` with the prompt of the session's last `context()`.
 * The difference is mem's counting error plus whatever the app sends beside mem's messages
 * (tool definitions, a system prompt passed apart, provider-side framing).
 */
export interface TokenAccuracy {
  /** The model id the prompts were for (`undefined`: no model was named). */
  readonly model: string | undefined;
  /** The counting used (`o200k_base`, `cl100k_base`, `claude`, `o200k_base+10%`, or your counter's). */
  readonly encoding: string;
  /** Calls compared. */
  readonly calls: number;
  /** Sums over those calls: what mem counted, and what the provider reported. */
  readonly counted: number;
  readonly reported: number;
  /** `reported / counted` over all calls: above 1, mem under-counts this model. */
  readonly ratio: number;
  /** Smallest and largest `reported / counted` of one call. */
  readonly minRatio: number;
  readonly maxRatio: number;
}

/** Distinct (model, counting) pairs kept; past it the oldest is dropped. */
const MAX_ENTRIES = 256;

/** Running per-model sums of counted vs reported prompt tokens. */
export class TokenAccuracyStats {
  readonly #entries = new Map<string, TokenAccuracy>();

  record(model: string | undefined, encoding: string, counted: number, reported: number): void {
    const key = `${model ?? ''}\u0000${encoding}`;
    const ratio = counted > 0 ? reported / counted : reported === 0 ? 1 : Number.POSITIVE_INFINITY;
    const old = this.#entries.get(key);
    this.#entries.delete(key);
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    const sumCounted = (old?.counted ?? 0) + counted;
    const sumReported = (old?.reported ?? 0) + reported;
    this.#entries.set(key, {
      model,
      encoding,
      calls: (old?.calls ?? 0) + 1,
      counted: sumCounted,
      reported: sumReported,
      ratio: sumCounted > 0 ? sumReported / sumCounted : ratio,
      minRatio: Math.min(old?.minRatio ?? ratio, ratio),
      maxRatio: Math.max(old?.maxRatio ?? ratio, ratio),
    });
  }

  /** One entry per model and counting, most recently compared last. */
  report(): TokenAccuracy[] {
    return [...this.#entries.values()];
  }
}
