import type { Message } from '../../model/message.ts';
import { SUMMARY_HEADER } from '../../model/summary-message.ts';
import type { StoredMessage, SummaryRecord } from '../../store/store-spec.ts';
import { MIN_EXTRACTIVE_SUMMARY_TOKENS } from '../../summarize/extractive-summarizer.ts';
import type { PrefixPlan } from './plan-prefix.ts';

export interface TimeRange {
  start: number;
  end: number;
}

/** When the replaced messages were written; an earlier summary counts with its own range. */
export function summaryTimeRange(replaced: readonly StoredMessage[]): TimeRange {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const m of replaced) {
    const range = m.metadata?.timeRange as TimeRange | undefined;
    start = Math.min(start, range?.start ?? m.createdAt);
    end = Math.max(end, range?.end ?? m.createdAt);
  }
  return { start, end };
}

/**
 * The summary message replacing a prefix: a header line giving how many interactions it covers
 * (an earlier summary's included) and when, then the summarizer's text.
 */
export function summaryDraft(input: {
  id: string;
  text: string;
  prefix: PrefixPlan;
  createdAt: number;
  source: 'summarizer' | 'fallback';
}): Message & { role: 'system' } {
  const { prefix } = input;
  const range = summaryTimeRange(prefix.replaced);
  const earlier = prefix.previousSummary?.metadata?.interactions;
  const interactions = prefix.interactions + (typeof earlier === 'number' ? earlier : 0);
  return {
    id: input.id,
    role: 'system',
    content: `${SUMMARY_HEADER} (${interactions} interactions, ${iso(range.start)} to ${iso(range.end)}):\n${input.text}`,
    createdAt: input.createdAt,
    metadata: { kind: 'summary', timeRange: range, interactions, source: input.source },
  };
}

/** The store's record of a summary: what it replaced and how much smaller it is. */
export function summaryRecord(
  prefix: PrefixPlan,
  summary: { id: string; tokenCount: number },
  createdAt: number,
): SummaryRecord {
  const originalTokens = prefixTokens(prefix);
  const previous = prefix.previousSummary;
  return {
    id: summary.id,
    originalMessageIds: prefix.replaced.map((m) => m.id),
    fromSeq: prefix.replaced[0]!.seq,
    throughSeq: prefix.throughSeq,
    originalTokenCount: originalTokens,
    tokenCount: summary.tokenCount,
    compressionRatio: originalTokens / summary.tokenCount,
    timeRange: summaryTimeRange(prefix.replaced),
    createdAt,
    ...(previous === undefined ? {} : { previousSummaryId: previous.id }),
  };
}

/** Tokens of everything a prefix replaces, an earlier summary included. */
export const prefixTokens = (prefix: PrefixPlan): number =>
  prefix.replaced.reduce((s, m) => s + m.tokenCount, 0);

/** Tokens of a summary message around its text: overhead, role and the header line. */
const SUMMARY_FRAME_TOKENS = 40;
/** Share of the tightest window a summary message may fill. */
const SUMMARY_SHARE = 1 / 2;
/** The same when knowledge is retrieved into every context. */
const SUMMARY_SHARE_WITH_RETRIEVAL = 1 / 8;

/**
 * Most tokens a summary's text may have: `maxSummaryTokens`, always; with a short-term window,
 * also no more than fits a summary message of half the tightest window, or of an eighth of it
 * when knowledge is retrieved into every context (the retrieved turns carry the detail, so the
 * budget goes to them); at least 64.
 */
export function summaryTextCap(input: {
  /** `memory_max_tokens` of each short-term window (0: unbounded). */
  windowBudgets: readonly number[];
  retrievesAlways: boolean;
  maxSummaryTokens: number;
}): number {
  const budgets = input.windowBudgets.filter((b) => b > 0);
  if (budgets.length === 0) return input.maxSummaryTokens;
  const share = input.retrievesAlways ? SUMMARY_SHARE_WITH_RETRIEVAL : SUMMARY_SHARE;
  const cap = Math.floor(Math.min(...budgets) * share) - SUMMARY_FRAME_TOKENS;
  return Math.min(input.maxSummaryTokens, Math.max(MIN_EXTRACTIVE_SUMMARY_TOKENS, cap));
}

/** The summary target: `ratio` x the replaced tokens, at least the extractive minimum, at most `cap`. */
export function summaryTargetTokens(
  prefix: PrefixPlan,
  ratio: number,
  cap: number,
  requested?: number,
): number {
  return Math.min(
    cap,
    requested ?? Math.max(MIN_EXTRACTIVE_SUMMARY_TOKENS, Math.round(prefixTokens(prefix) * ratio)),
  );
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
