import { type ConfigIssue, MemConfigError } from '@mem/core';
import { z } from 'zod';
import type { ChatModel } from '../chat-model.ts';

/** Options of `createChainOfDensitySummarizer`. */
export interface ChainOfDensityOptions {
  /** The LLM. Wrap it in `withRetries` for backoff on 429/5xx; this summarizer retries only malformed replies. */
  model: ChatModel;
  /**
   * Upper bound of each reply, in tokens. Default: `2 × targetTokens + 256` per pass (the JSON
   * wrapper and the entity list included); in `single-call` mode that times `loops`, at most
   * 16,384. A reply that hits it is truncated and counts as malformed.
   */
  maxOutputTokens?: number;
  /** Sampling temperature. Default 0: summaries should be reproducible. */
  temperature?: number;
  /**
   * Extra attempts of a pass whose reply is malformed (not one JSON object, schema mismatch,
   * empty or error-like summary, truncated). Default 1.
   */
  retryMalformed?: number;
  /**
   * `per-pass` (default): one model call per pass, so a failure in pass k keeps pass k-1.
   * `single-call`: the paper's variant, all passes in one reply (`{"steps": [...]}`); cheaper
   * in input tokens, but a malformed reply loses every pass.
   */
  mode?: 'per-pass' | 'single-call';
  /**
   * Called when a pass after the first fails (malformed after its retries, or a provider error)
   * and the previous pass is returned instead. The error is a `MemSummarizerError` with `cause`.
   */
  onPassFailure?: (error: unknown, pass: number) => void;
}

const optionsSchema = z.object({
  model: z.custom<ChatModel>(
    (m) =>
      typeof m === 'object' &&
      m !== null &&
      typeof (m as ChatModel).generate === 'function' &&
      typeof (m as ChatModel).id === 'string',
    'expected a ChatModel ({ id, generate })',
  ),
  maxOutputTokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
  retryMalformed: z.number().int().min(0).max(10).optional(),
  mode: z.enum(['per-pass', 'single-call']).optional(),
  onPassFailure: z
    .custom<(error: unknown, pass: number) => void>(
      (f) => typeof f === 'function',
      'expected a function',
    )
    .optional(),
});

/** The options with their defaults. */
export interface ResolvedChainOfDensityOptions {
  model: ChatModel;
  maxOutputTokens: number | undefined;
  temperature: number;
  retryMalformed: number;
  mode: 'per-pass' | 'single-call';
  onPassFailure: ((error: unknown, pass: number) => void) | undefined;
}

/** Validates the options; throws one `MemConfigError` listing every bad option. */
export function resolveChainOfDensityOptions(input: unknown): ResolvedChainOfDensityOptions {
  const parsed = optionsSchema.safeParse(input);
  if (!parsed.success) {
    const issues: ConfigIssue[] = parsed.error.issues.map((i) => ({
      path: i.path.join('.'),
      message: i.message,
    }));
    throw new MemConfigError(issues, {
      source: 'createChainOfDensitySummarizer options',
      cause: parsed.error,
    });
  }
  const o = parsed.data;
  return {
    model: o.model,
    maxOutputTokens: o.maxOutputTokens,
    temperature: o.temperature ?? 0,
    retryMalformed: o.retryMalformed ?? 1,
    mode: o.mode ?? 'per-pass',
    onPassFailure: o.onPassFailure,
  };
}

/** The most a default `single-call` reply may use. */
const MAX_DEFAULT_OUTPUT_TOKENS = 16_384;

/** `maxOutputTokens` for one call that writes `passes` summaries of `targetTokens`. */
export function outputBudget(
  configured: number | undefined,
  targetTokens: number,
  passes: number,
): number {
  if (configured !== undefined) return configured;
  const perPass = Math.ceil(2 * targetTokens) + 256;
  return passes === 1 ? perPass : Math.min(perPass * passes, MAX_DEFAULT_OUTPUT_TOKENS);
}
