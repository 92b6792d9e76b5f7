import type { SummarizerFunction } from '../../summarize/summarizer.ts';
import type { SummarizeCallback } from './memory-manager-config.ts';

/** The Memory Manager's default summarization prompt; `{content}` becomes the transcript. */
export const DEFAULT_SUMMARIZE_PROMPT = [
  'Summarize the following conversation, preserving:',
  '1. Key topics discussed',
  '2. Important decisions made',
  '3. Tools used and their outcomes',
  '4. Any errors or issues encountered',
  '5. Context that would be needed to continue',
  '',
  'Keep the summary concise but informative.',
  '',
  '{content}',
].join('\n');

/** The default prompt for `transcript` (the engine's rendering of the entries to summarize). */
export function summarizePrompt(transcript: string): string {
  // A function replacer: `$&` and friends in the transcript stay literal.
  return DEFAULT_SUMMARIZE_PROMPT.replace('{content}', () => transcript);
}

/**
 * The engine summarizer that calls `callback` once with the default prompt. The engine bounds the
 * call with its deadline and, when it throws, times out or returns unusable text (empty, an
 * error message, longer than the original), uses the extractive summary and reports a fallback.
 */
export function callbackSummarizer(callback: SummarizeCallback): SummarizerFunction {
  return (input) => callback(summarizePrompt(input));
}
