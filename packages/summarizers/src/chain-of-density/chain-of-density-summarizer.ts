import {
  MemSummarizerError,
  MemValidationError,
  SUMMARIZER_SPECIFICATION_VERSION,
} from '@mem/core';
import {
  allStepsPrompt,
  codSystemPrompt,
  densifyPassPrompt,
  initialPassPrompt,
  type SummarizeOptions,
  type SummarizeResult,
  type SummarizerObject,
  type SummarizeUsage,
  type SummaryGate,
  type SummarySource,
  summarySource,
} from '@mem/core/summarize';
import type { ChatResponse } from '../chat-model.ts';
import {
  type ChainOfDensityOptions,
  outputBudget,
  type ResolvedChainOfDensityOptions,
  resolveChainOfDensityOptions,
} from './chain-of-density-options.ts';
import {
  type CodReplyResult,
  type CodStep,
  parseDensifyReply,
  parseInitialReply,
  parseStepsReply,
  UnusableSummaryError,
} from './cod-reply.ts';

/** A Chain of Density summarizer: core calls it once per compaction and it runs every pass. */
export interface ChainOfDensitySummarizer extends SummarizerObject {
  summarize(input: string, options: SummarizeOptions): Promise<SummarizeResult>;
  readonly capabilities: { readonly chainOfDensity: true };
}

/** A reply that stayed malformed after every attempt; `cause` is the last parse error. */
class MalformedReplyError extends MemSummarizerError {}

interface Run {
  config: ResolvedChainOfDensityOptions;
  options: SummarizeOptions;
  transcript: string;
  /** The transcript prepared for `checkSummary`: every pass's summary must be about it. */
  source: SummarySource;
  system: string;
  usage: Required<SummarizeUsage>;
}

/** One model call: reports its usage as soon as it returns, before its reply is checked. */
async function call(run: Run, prompt: string, maxOutputTokens: number): Promise<ChatResponse> {
  const { config, options } = run;
  options.signal.throwIfAborted();
  const response = await config.model.generate({
    system: run.system,
    prompt,
    maxOutputTokens,
    json: true,
    temperature: config.temperature,
    signal: options.signal,
  });
  const usage = { ...response.usage, model: config.model.id };
  run.usage.inputTokens += usage.inputTokens;
  run.usage.outputTokens += usage.outputTokens;
  options.onUsage?.(usage);
  options.signal.throwIfAborted();
  return response;
}

/** A failure of the user's `summaryGate` function (core's `SummaryGateError`), reported as is. */
const isGateError = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { summaryGate?: unknown }).summaryGate === true;

/** Calls until the reply parses, at most `1 + retryMalformed` times. */
async function attempt<T>(
  run: Run,
  what: string,
  prompt: string,
  maxOutputTokens: number,
  parse: (
    response: ChatResponse,
    source: SummarySource,
    gate: SummaryGate | undefined,
  ) => CodReplyResult<T>,
): Promise<T> {
  const attempts = 1 + run.config.retryMalformed;
  let last: Error | undefined;
  for (let i = 0; i < attempts; i++) {
    const parsed = parse(
      await call(run, prompt, maxOutputTokens),
      run.source,
      run.options.summaryGate,
    );
    if (parsed.ok) return parsed.value;
    // The user's summaryGate failed: asking the model again would not help.
    if (isGateError(parsed.error)) throw parsed.error;
    last = parsed.error;
  }
  const unusable = last instanceof UnusableSummaryError;
  throw new MalformedReplyError(
    `[mem/summarizers] Chain of Density ${what}: the reply of ${run.config.model.id} was ` +
      `${unusable ? 'unusable' : 'malformed'} after ${attempts} attempt${attempts === 1 ? '' : 's'} (${last?.message}). ` +
      (unusable
        ? 'Nothing of it is stored. If it reads like an error, check the provider, the key and the endpoint.'
        : 'Use a model that follows JSON instructions, or raise maxOutputTokens if replies are truncated.'),
    { cause: last },
  );
}

/** A pass's failure as a `MemSummarizerError`; aborts are returned unchanged. */
function passError(run: Run, error: unknown, what: string): unknown {
  if (run.options.signal.aborted || error instanceof MalformedReplyError || isGateError(error)) {
    return error;
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new MemSummarizerError(
    `[mem/summarizers] Chain of Density ${what} failed: ${detail}. Check the model and its provider.`,
    { cause: error },
  );
}

function addEntities(covered: string[], added: readonly string[]): void {
  const seen = new Set(covered.map((e) => e.toLowerCase()));
  for (const entity of added) {
    if (seen.has(entity.toLowerCase())) continue;
    seen.add(entity.toLowerCase());
    covered.push(entity);
  }
}

async function perPass(run: Run): Promise<{ text: string; passes: number }> {
  const { options, transcript } = run;
  const { loops, targetTokens } = options;
  const budget = outputBudget(run.config.maxOutputTokens, targetTokens, 1);
  let best: CodStep;
  try {
    const prompt = initialPassPrompt({ transcript, targetTokens, loops });
    best = await attempt(run, `pass 1 of ${loops}`, prompt, budget, parseInitialReply);
  } catch (error) {
    throw passError(run, error, `pass 1 of ${loops}`);
  }
  const covered = [...best.entities];
  for (let pass = 2; pass <= loops; pass++) {
    const what = `pass ${pass} of ${loops}`;
    const prompt = densifyPassPrompt({
      transcript,
      targetTokens,
      loops,
      pass,
      previousSummary: best.summary,
      coveredEntities: covered,
    });
    try {
      best = await attempt(run, what, prompt, budget, parseDensifyReply);
    } catch (error) {
      const failure = passError(run, error, what);
      if (options.signal.aborted) throw failure;
      run.config.onPassFailure?.(failure, pass);
      return { text: best.summary, passes: pass - 1 };
    }
    addEntities(covered, best.entities);
  }
  return { text: best.summary, passes: loops };
}

async function singleCall(run: Run): Promise<{ text: string; passes: number }> {
  const { loops, targetTokens } = run.options;
  const what = `(all ${loops} passes in one call)`;
  const budget = outputBudget(run.config.maxOutputTokens, targetTokens, loops);
  const prompt = allStepsPrompt({ transcript: run.transcript, targetTokens, loops });
  try {
    const steps = (await attempt(run, what, prompt, budget, parseStepsReply)).slice(0, loops);
    return { text: steps.at(-1)!.summary, passes: steps.length };
  } catch (error) {
    throw passError(run, error, what);
  }
}

function validateCall(input: unknown, options: SummarizeOptions): void {
  const bad = (field: string, expected: string) =>
    new MemValidationError(
      field,
      `[mem/summarizers] Chain of Density summarize: ${field} must be ${expected}.`,
    );
  if (typeof input !== 'string') throw bad('input', 'a string (the transcript)');
  if (!(options?.signal instanceof AbortSignal)) throw bad('options.signal', 'an AbortSignal');
  if (!Number.isInteger(options.loops) || options.loops < 1) {
    throw bad('options.loops', 'an integer >= 1');
  }
  if (!(options.targetTokens > 0) || !Number.isFinite(options.targetTokens)) {
    throw bad('options.targetTokens', 'a positive number');
  }
}

/**
 * Chain of Density (Adams et al. 2023, "From Sparse to Dense") over a conversation transcript:
 * pass 1 writes a deliberately entity-sparse summary of about `targetTokens` tokens, and each of
 * passes 2..`loops` adds 1-3 missing entities (names, numbers, dates, tool outcomes and errors,
 * decisions, open action items, user preferences) while rewriting at the same length. Every
 * reply is one JSON object checked with zod, and its summary with core's `checkSummary` (not
 * error text, no credential, about the transcript); a malformed or unusable reply is retried
 * `retryMalformed` times, then the previous pass is returned — or, on pass 1, a `MemSummarizerError` is thrown so
 * core falls back to the extractive summary. Aborts propagate at once. Each model call's usage
 * goes to `options.onUsage` as it returns; the result carries the total.
 */
export function createChainOfDensitySummarizer(
  options: ChainOfDensityOptions,
): ChainOfDensitySummarizer {
  const config = resolveChainOfDensityOptions(options);
  return {
    specificationVersion: SUMMARIZER_SPECIFICATION_VERSION,
    capabilities: { chainOfDensity: true },
    async summarize(input, summarizeOptions) {
      validateCall(input, summarizeOptions);
      const run: Run = {
        config,
        options: summarizeOptions,
        transcript: input,
        source: summarySource(input),
        system: codSystemPrompt(summarizeOptions.instructions),
        usage: { inputTokens: 0, outputTokens: 0, model: config.model.id },
      };
      const result = config.mode === 'single-call' ? await singleCall(run) : await perPass(run);
      return { ...result, usage: { ...run.usage } };
    },
  };
}
