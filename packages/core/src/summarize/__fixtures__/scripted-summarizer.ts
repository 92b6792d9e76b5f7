import { createTokenCounter } from '../../tokens/token-counter.ts';
import { extractiveSummary } from '../extractive-summarizer.ts';
import type { RunSummarizerParams } from '../run-summarizer.ts';
import type { SummarizeOptions } from '../summarizer.ts';
import { billingConversation } from './billing-conversation.ts';

export const counter = createTokenCounter();
export const messages = billingConversation();
const originalTokens = messages.reduce((s, m) => s + counter.countMessage(m), 0);
/** runSummarizer params for the billing conversation: 3 loops, 150 tokens, 1 s deadline. */
export const base = {
  messages,
  instructions: 'Focus on billing.',
  loops: 3,
  targetTokens: 150,
  timeoutMs: 1000,
  counter,
  originalTokens,
} satisfies RunSummarizerParams;
/** What the extractive fallback returns for `base`. */
export const fallbackText = extractiveSummary(messages, { targetTokens: 150, counter });

export type Call = { input: string; options: SummarizeOptions };

/** A summarizer answering from a script, one entry per call (the last repeats); records every call. */
export function scripted(...answers: ((call: Call) => unknown)[]) {
  const calls: Call[] = [];
  const summarizer = (input: string, options: SummarizeOptions) => {
    const call = { input, options };
    calls.push(call);
    return answers[Math.min(calls.length, answers.length) - 1]!(call) as Promise<string>;
  };
  return { calls, summarizer };
}

/** Never answers; rejects with the abort reason when the signal fires. */
export const hangUntilAborted = ({ options }: Call) =>
  new Promise((_, reject) =>
    options.signal.addEventListener('abort', () => reject(options.signal.reason)),
  );

/** Never answers and ignores the signal. */
export const hangForever = () => new Promise(() => {});
