import { type ConfigIssue, MemConfigError } from '@mem/core';
import type { SummarizeUsage } from '@mem/core/summarize';
import { z } from 'zod';
import type { ChatModel } from '../chat-model.ts';
import type { DroppedFactReason, FactReplyOperation } from './fact-reply.ts';

/** Options of `createLlmFactExtractor`. */
export interface LlmFactExtractorOptions {
  /** The LLM. Wrap it in `withRetries` for backoff on 429/5xx; the extractor retries only malformed replies. */
  model: ChatModel;
  /** Most operations one interaction may yield; more are dropped. Default 5. */
  maxOperations?: number;
  /** Upper bound of the reply, in tokens. Default `256 + 160 × maxOperations`. */
  maxOutputTokens?: number;
  /** Sampling temperature. Default 0. */
  temperature?: number;
  /**
   * Extra attempts when the reply is malformed (not one JSON object, schema mismatch,
   * truncated); the retry tells the model what was wrong. Default 1.
   */
  retryMalformed?: number;
  /** Characters of each user or assistant message put in the prompt. Default 4,000. */
  maxCharsPerMessage?: number;
  /** Names the extractor in events and errors. Default: the model's id (`openai:gpt-4o-mini`). */
  id?: string;
  /** Each model call's token usage, as it returns (malformed replies included). */
  onUsage?: (usage: SummarizeUsage) => void;
  /**
   * An operation of a well-formed reply that was left out: it names a fact the user does not
   * have (`unknown-id`) or one already named (`repeated-id`), its text is empty or reads like
   * an error or refusal (`unusable-text`), or it is past `maxOperations` (`over-limit`).
   */
  onDrop?: (operation: FactReplyOperation, reason: DroppedFactReason) => void;
}

const fn = <T>() => z.custom<T>((f) => typeof f === 'function', 'expected a function').optional();

const optionsSchema = z.object({
  model: z.custom<ChatModel>(
    (m) =>
      typeof m === 'object' &&
      m !== null &&
      typeof (m as ChatModel).generate === 'function' &&
      typeof (m as ChatModel).id === 'string',
    'expected a ChatModel ({ id, generate }), e.g. openAIChatModel(client, { model })',
  ),
  maxOperations: z.number().int().min(1).max(50).optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
  retryMalformed: z.number().int().min(0).max(10).optional(),
  maxCharsPerMessage: z.number().int().min(100).optional(),
  id: z.string().trim().min(1).max(256).optional(),
  onUsage: fn<LlmFactExtractorOptions['onUsage']>(),
  onDrop: fn<LlmFactExtractorOptions['onDrop']>(),
});

export interface ResolvedLlmFactExtractorOptions {
  model: ChatModel;
  id: string;
  maxOperations: number;
  maxOutputTokens: number;
  temperature: number;
  retryMalformed: number;
  maxCharsPerMessage: number;
  onUsage: LlmFactExtractorOptions['onUsage'];
  onDrop: LlmFactExtractorOptions['onDrop'];
}

/** Validates the options; throws one `MemConfigError` listing every bad option. */
export function resolveLlmFactExtractorOptions(input: unknown): ResolvedLlmFactExtractorOptions {
  const parsed = optionsSchema.safeParse(input);
  if (!parsed.success) {
    const issues: ConfigIssue[] = parsed.error.issues.map((i) => ({
      path: i.path.join('.'),
      message: i.message,
    }));
    throw new MemConfigError(issues, {
      source: 'createLlmFactExtractor options',
      cause: parsed.error,
    });
  }
  const o = parsed.data;
  const maxOperations = o.maxOperations ?? 5;
  return {
    model: o.model,
    id: o.id ?? o.model.id,
    maxOperations,
    maxOutputTokens: o.maxOutputTokens ?? 256 + 160 * maxOperations,
    temperature: o.temperature ?? 0,
    retryMalformed: o.retryMalformed ?? 1,
    maxCharsPerMessage: o.maxCharsPerMessage ?? 4_000,
    onUsage: o.onUsage,
    onDrop: o.onDrop,
  };
}
