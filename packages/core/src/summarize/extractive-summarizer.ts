import { MemValidationError } from '../errors/errors.ts';
import type { Message } from '../model/message.ts';
import type { TokenCounter } from '../tokens/token-counter.ts';
import { collectFacts, type Fact } from './collect-facts.ts';
import { parseTranscript } from './parse-transcript.ts';
import { dropLowest, lineCost, selectFacts } from './select-facts.ts';
import {
  SUMMARIZER_SPECIFICATION_VERSION,
  type SummarizeOptions,
  type SummarizerFunction,
  type SummarizerObject,
} from './summarizer.ts';
import {
  headerOf,
  KEY_POINTS_LABEL,
  mergeHeaders,
  parseSummary,
  renderHeader,
  type SummaryHeader,
} from './summary-header.ts';
import {
  type TranscriptEntry,
  toTranscriptEntries,
  withEarlierSummary,
} from './transcript-entry.ts';

/** The smallest budget an extractive summary is given, whatever `targetTokens` says (room for the header). */
export const MIN_EXTRACTIVE_SUMMARY_TOKENS = 64;

export interface ExtractiveSummaryOptions {
  /** Upper bound of the summary, in `counter.countText` tokens (at least `MIN_EXTRACTIVE_SUMMARY_TOKENS`). */
  targetTokens: number;
  counter: TokenCounter;
  /** An earlier summary to fold in: its header counts add up and its key lines are kept first. */
  previousSummary?: string;
}

const EMPTY_HEADER: SummaryHeader = {
  userMessages: 0,
  first: null,
  last: null,
  tools: [],
  errors: 0,
};

/** The token budget an extractive summary gets for `targetTokens`. */
export function extractiveBudget(targetTokens: number): number {
  if (typeof targetTokens !== 'number' || !(targetTokens > 0) || !Number.isFinite(targetTokens)) {
    throw new MemValidationError(
      'targetTokens',
      `[mem/core] extractive summary targetTokens must be a positive number, got ${String(targetTokens)}`,
    );
  }
  return Math.max(Math.floor(targetTokens), MIN_EXTRACTIVE_SUMMARY_TOKENS);
}

/** Ever shorter headers: without the last, then the first user message, the tools, the errors. */
function degradedHeaders(full: SummaryHeader): string[][] {
  const noLast = { ...full, last: null };
  const noFirst = { ...noLast, first: null };
  const noTools = { ...noFirst, tools: [] };
  return [noLast, noFirst, noTools, { ...noTools, errors: 0 }].map(renderHeader);
}

function summarizeEntries(all: TranscriptEntry[], options: ExtractiveSummaryOptions): string {
  const budget = extractiveBudget(options.targetTokens);
  const { counter } = options;
  const entries = withEarlierSummary(all, options.previousSummary);
  const earlier = entries.flatMap((e) => (e.kind === 'summary' ? [e.text] : []));
  let header = EMPTY_HEADER;
  const earlierLines: string[] = [];
  for (const text of earlier) {
    const parsed = parseSummary(text);
    if (parsed.header) header = mergeHeaders(header, parsed.header);
    earlierLines.push(...parsed.lines);
  }
  const fullHeader = mergeHeaders(header, headerOf(entries));
  let headerLines = renderHeader(fullHeader);
  const headerTokens = counter.countText(`${headerLines.join('\n')}\n${KEY_POINTS_LABEL}`) + 1;

  const cost = lineCost(counter);
  let chosen = selectFacts(collectFacts(entries, earlierLines), budget - headerTokens, cost);
  const render = (facts: readonly Fact[]) =>
    facts.length === 0
      ? headerLines.join('\n')
      : [...headerLines, KEY_POINTS_LABEL, ...facts.map((f) => f.line)].join('\n');

  // Line counts bound the whole in practice; verify, and trim if token merges across lines disagree.
  let text = render(chosen);
  let tokens = counter.countText(text);
  while (tokens > budget && chosen.length > 0) {
    chosen = dropLowest(chosen, tokens - budget, cost);
    text = render(chosen);
    tokens = counter.countText(text);
  }
  // Only a budget near the floor with very long first/last messages gets here: shorten the header.
  for (const shorter of degradedHeaders(fullHeader)) {
    if (tokens <= budget) break;
    headerLines = shorter;
    text = headerLines.join('\n');
    tokens = counter.countText(text);
  }
  return text;
}

/**
 * The no-LLM summary of `messages`: the Memory Manager's heuristic header (user message count,
 * first and last user message, tools used, errors), then the sentences and tool outcomes that
 * matter later — errors and decisions first, then by density of names, numbers, ids, dates,
 * people, plans, preferences and changes of state — in chronological order, each attributed to
 * its speaker (`- Lena: ...`, or `- User: ...` without a name). Greetings, reactions and filler
 * are left out. Deterministic, and never more than `targetTokens` tokens (floor 64). Earlier
 * summaries (`previousSummary`, or summary messages in `messages`) are folded in: their facts
 * merged with the new ones, each once, their chit-chat dropped.
 */
export function extractiveSummary(
  messages: readonly Message[],
  options: ExtractiveSummaryOptions,
): string {
  return summarizeEntries(toTranscriptEntries(messages), options);
}

/** `extractiveSummary` of transcript text (as rendered by `renderTranscript`, or any text). */
export function extractiveSummaryOfText(text: string, options: ExtractiveSummaryOptions): string {
  return summarizeEntries(parseTranscript(text), options);
}

/**
 * The extractive summarizer as a `Summarizer`: callable like a `SummarizerFunction` (returns the
 * summary synchronously) and a `SummarizerObject` declaring `chainOfDensity`, so core calls it
 * once instead of looping. It summarizes the transcript text it is given.
 */
export type ExtractiveSummarizer = SummarizerFunction &
  SummarizerObject & {
    (input: string, options: Pick<SummarizeOptions, 'targetTokens' | 'previousSummary'>): string;
    readonly capabilities: { readonly chainOfDensity: true };
  };

export function createExtractiveSummarizer(counter: TokenCounter): ExtractiveSummarizer {
  const summarize = (
    input: string,
    options: Pick<SummarizeOptions, 'targetTokens' | 'previousSummary'>,
  ): string =>
    extractiveSummaryOfText(input, {
      targetTokens: options.targetTokens,
      counter,
      ...(options.previousSummary === undefined
        ? {}
        : { previousSummary: options.previousSummary }),
    });
  return Object.assign(summarize, {
    specificationVersion:
      SUMMARIZER_SPECIFICATION_VERSION as typeof SUMMARIZER_SPECIFICATION_VERSION,
    capabilities: { chainOfDensity: true } as const,
    summarize: async (input: string, options: SummarizeOptions) => summarize(input, options),
  });
}
