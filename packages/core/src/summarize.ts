/**
 * `@mem/core/summarize`, for authors of a summarizer (such as `@mem/summarizers`): the
 * `Summarizer` contract, the transcript a summarizer reads, the checks every summary passes, the
 * run with extractive fallback, and the Chain of Density prompts (the one set, in a JSON and a
 * plain-text reply format).
 */

export type { CountedMessage, Message } from './model/message.ts';
export { isSummaryMessage, messageText } from './model/message.ts';
export { messageSchema } from './model/message-schema.ts';
export { promptProblems } from './model/prompt-validity.ts';
export type { DensifyPassPrompt, InitialPassPrompt } from './summarize/cod-prompts.ts';
export {
  allStepsPrompt,
  densifyPassPrompt,
  densifyPrompt,
  initialPassPrompt,
  initialSummaryPrompt,
  SUMMARY_FOCUS,
} from './summarize/cod-prompts.ts';
export { codSystemPrompt } from './summarize/cod-system-prompt.ts';
export { looksLikeErrorText } from './summarize/error-text.ts';
export type {
  ExtractiveSummarizer,
  ExtractiveSummaryOptions,
} from './summarize/extractive-summarizer.ts';
export {
  createExtractiveSummarizer,
  extractiveSummary,
  extractiveSummaryOfText,
  MIN_EXTRACTIVE_SUMMARY_TOKENS,
} from './summarize/extractive-summarizer.ts';
export type { SummaryCheck, SummaryCheckOptions } from './summarize/is-usable-summary.ts';
export { checkSummary, isUsableSummary } from './summarize/is-usable-summary.ts';
export { parseTranscript } from './summarize/parse-transcript.ts';
export type { RenderTranscriptOptions } from './summarize/render-transcript.ts';
export { renderTranscript } from './summarize/render-transcript.ts';
export type { RunSummarizerParams, SummaryOutcome } from './summarize/run-summarizer.ts';
export { runSummarizer } from './summarize/run-summarizer.ts';
export type {
  SummarizeOptions,
  SummarizeResult,
  Summarizer,
  SummarizerCapabilities,
  SummarizerFunction,
  SummarizerObject,
  SummarizerObjectV1,
  SummarizerV1,
  SummarizeUsage,
} from './summarize/summarizer.ts';
export {
  isSummarizerObject,
  runsChainOfDensity,
  SUMMARIZER_SPECIFICATION_VERSION,
} from './summarize/summarizer.ts';
export type {
  SummaryGate,
  SummaryGateContext,
  SummaryGateFunction,
  SummaryGateVerdict,
} from './summarize/summary-gate.ts';
export type { SummarySource } from './summarize/summary-grounding.ts';
export { summarySource } from './summarize/summary-grounding.ts';
export { SUMMARY_HEADER_TITLE } from './summarize/summary-header.ts';
export type { TranscriptEntry, TranscriptToolCall } from './summarize/transcript-entry.ts';
