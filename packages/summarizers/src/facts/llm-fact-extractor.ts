import {
  FACT_EXTRACTOR_SPECIFICATION_VERSION,
  type FactExtractor,
  type FactExtractorInput,
  type FactExtractorOptions,
  type FactOperation,
  MemError,
  MemSummarizerError,
  MemValidationError,
} from '@mem/core';
import { messageText, type SummarizeUsage, summarySource } from '@mem/core/summarize';
import type { ChatResponse } from '../chat-model.ts';
import { factPrompt, factSystemPrompt } from './fact-prompt.ts';
import { checkOperations, parseFactReply } from './fact-reply.ts';
import {
  type LlmFactExtractorOptions,
  type ResolvedLlmFactExtractorOptions,
  resolveLlmFactExtractorOptions,
} from './llm-fact-extractor-options.ts';

/** A reply that stayed malformed after every attempt; `cause` is the last parse error. */
class MalformedFactsReplyError extends MemSummarizerError {}

/** Longest part of a parse error repeated to the model when it is asked again. */
const MAX_RETRY_NOTE = 600;

function validateCall(input: FactExtractorInput, options: FactExtractorOptions): void {
  const bad = (field: string, expected: string) =>
    new MemValidationError(
      field,
      `[mem/summarizers] fact extractor: ${field} must be ${expected}.`,
    );
  if (typeof input !== 'object' || input === null) throw bad('input', 'an object');
  if (!Array.isArray(input.messages)) throw bad('input.messages', 'an array of stored messages');
  if (!Array.isArray(input.facts)) throw bad('input.facts', "an array of the user's facts");
  if (!Number.isFinite(input.now) || Number.isNaN(new Date(input.now).getTime())) {
    throw bad('input.now', 'a time in ms since the epoch');
  }
  if (!(options?.signal instanceof AbortSignal)) throw bad('options.signal', 'an AbortSignal');
}

/** The usage callback the engine may hand in beside the signal (not part of spec v1). */
function callUsage(options: FactExtractorOptions): ((usage: SummarizeUsage) => void) | undefined {
  const onUsage = (options as { onUsage?: unknown }).onUsage;
  return typeof onUsage === 'function' ? (onUsage as (usage: SummarizeUsage) => void) : undefined;
}

async function call(
  config: ResolvedLlmFactExtractorOptions,
  system: string,
  prompt: string,
  options: FactExtractorOptions,
): Promise<ChatResponse> {
  const { signal } = options;
  signal.throwIfAborted();
  let response: ChatResponse;
  try {
    response = await config.model.generate({
      system,
      prompt,
      maxOutputTokens: config.maxOutputTokens,
      json: true,
      temperature: config.temperature,
      signal,
    });
  } catch (error) {
    if (signal.aborted || MemError.isInstance(error)) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new MemSummarizerError(
      `[mem/summarizers] fact extractor ${config.id}: the model call failed: ${detail}. Check the model and its provider.`,
      { cause: error },
    );
  }
  const usage = { ...response.usage, model: config.model.id };
  config.onUsage?.(usage);
  callUsage(options)?.(usage);
  signal.throwIfAborted();
  return response;
}

const hasUserText = (input: FactExtractorInput) =>
  input.messages.some((m) => m.role === 'user' && messageText(m).trim() !== '');

/**
 * An LLM fact extractor for core's engine (`createMemoryEngine({ factExtractor })`): one model
 * call per finished interaction of a session that has a user. The prompt holds the user's facts
 * (id, about, text) and the interaction's messages, numbered (user and assistant text, tool calls
 * and results in brief), and asks for durable facts of the user only, as short third-person
 * sentences in the user's language: `{"operations": [{op: "add" | "update" | "delete", ...}]}`.
 *
 * The reply is parsed with zod; a malformed one is asked again `retryMalformed` times (default
 * once) with what was wrong, then a `MemSummarizerError` is thrown (the engine reports it as
 * `facts:error` and the facts stay as they were). Operations naming an unknown fact, texts that
 * read like an error or refusal, and operations past `maxOperations` are dropped; texts are
 * trimmed and capped at `MAX_USER_FACT_LENGTH`; `source` numbers become `sourceMessageIds`.
 * An interaction without user text costs no call. Provider failures are the model's
 * `ProviderError`s (wrap it in `withRetries`); aborts reject with the signal's reason.
 */
export function createLlmFactExtractor(options: LlmFactExtractorOptions): FactExtractor {
  const config = resolveLlmFactExtractorOptions(options);
  const system = factSystemPrompt(config.maxOperations);
  return {
    specificationVersion: FACT_EXTRACTOR_SPECIFICATION_VERSION,
    id: config.id,
    async extract(input, extractOptions): Promise<FactOperation[]> {
      validateCall(input, extractOptions);
      extractOptions.signal.throwIfAborted();
      if (!hasUserText(input)) return [];
      const { prompt, messageIds } = factPrompt(input, config);
      const attempts = 1 + config.retryMalformed;
      let last: Error | undefined;
      let asked = prompt;
      for (let i = 0; i < attempts; i++) {
        const parsed = parseFactReply(await call(config, system, asked, extractOptions));
        if (parsed.ok) {
          return checkOperations({
            operations: parsed.value.operations,
            facts: input.facts,
            messageIds,
            source: summarySource(prompt),
            maxOperations: config.maxOperations,
            onDrop: config.onDrop,
          });
        }
        last = parsed.error;
        asked = `${prompt}\n\nYour previous reply could not be used: ${last.message.slice(0, MAX_RETRY_NOTE)}\nAnswer again with exactly one JSON object {"operations": [...]} and nothing else.`;
      }
      throw new MalformedFactsReplyError(
        `[mem/summarizers] fact extractor ${config.id}: the reply was malformed after ${attempts} attempt${attempts === 1 ? '' : 's'} (${last?.message}). ` +
          'No fact was changed. Use a model that follows JSON instructions, or raise maxOutputTokens if replies are truncated.',
        { cause: last },
      );
    },
  };
}
