import { isSummarizerConfig, type ProfileLongTermConfig } from '../config/profile-schema.ts';
import { MemError } from '../errors/mem-error.ts';
import type { CountedMessage } from '../model/message.ts';
import { summaryBody } from '../model/summary-message.ts';
import type { LongTermPlan } from '../strategies/long-term/long-term-strategy.ts';
import {
  prefixTokens,
  summaryDraft,
  summaryRecord,
  summaryTargetTokens,
  summaryTextCap,
} from '../strategies/long-term/summary-draft.ts';
import { runSummarizer } from '../summarize/run-summarizer.ts';
import type { EngineContext } from './engine-context.ts';
import { linkedRecord } from './flush-session.ts';
import { indexCompaction, knowledgeTargets } from './knowledge-index.ts';
import type { SessionState } from './session-state.ts';

/** Per-call settings of a summarization requested directly (e.g. by MemoryManager.compress). */
export interface SummarizeOverrides {
  /** Summary length in tokens, instead of `compressionRatio` x the replaced tokens. */
  targetTokens?: number;
}

/**
 * Carries out a `summarize` plan: runs the summarizer outside any lock (appends made meanwhile
 * land after `throughSeq` and stay), then commits summary, record and archive in one
 * compare-and-swap on the epoch planned at. False when another compaction or erase won.
 * Summarizer failures never reach history: the extractive fallback runs and an event says so.
 */
export async function commitSummary(
  ctx: EngineContext,
  state: SessionState,
  plan: Extract<LongTermPlan, { action: 'summarize' }>,
  config: ProfileLongTermConfig,
  overrides: SummarizeOverrides = {},
): Promise<boolean> {
  const epoch = state.epoch;
  const { summary, source } = await summarize(ctx, state.id, plan, overrides);
  const record = await linkedRecord(ctx, state.id, summaryRecord(plan.prefix, summary, ctx.now()));
  try {
    await ctx.store.compact(state.id, {
      expectedEpoch: epoch,
      throughSeq: plan.prefix.throughSeq,
      ...(plan.prefix.keepSeqs.length > 0 ? { keepSeqs: plan.prefix.keepSeqs } : {}),
      summary,
      record,
    });
  } catch (error) {
    // Another compaction or erase won: the caller plans again from the new state.
    if (!MemError.hasCode(error, 'MEM_STORE_CONFLICT')) throw error;
    return false;
  }
  await state.load(ctx.store);
  ctx.events.emit('compacted', {
    sessionId: state.id,
    record,
    source,
    durationMs: record.createdAt - summary.createdAt,
  });
  if (isSummarizerConfig(config) && config.knowledge_base !== null && ctx.knowledgeBase) {
    const indexedSeq = state.indexedSeq ?? 0;
    const replaced = plan.prefix.replaced;
    await indexCompaction(ctx, state.id, config, summary, replaced, indexedSeq, state.userId);
    state.indexedSeq = Math.max(indexedSeq, plan.prefix.throughSeq);
  }
  return true;
}

async function summarize(
  ctx: EngineContext,
  sessionId: string,
  plan: Extract<LongTermPlan, { action: 'summarize' }>,
  overrides: SummarizeOverrides,
): Promise<{ summary: CountedMessage; source: 'summarizer' | 'fallback' }> {
  const { prefix } = plan;
  const createdAt = ctx.now();
  // The summary text is at most maxSummaryTokens, and its message at most half the tightest window.
  const maxTokens = summaryTextCap({
    windowBudgets: ctx.profile.shortTerm.map((s) => s.config.memory_max_tokens),
    retrievesAlways: knowledgeTargets(ctx).some(
      (t) => t.config.knowledge_base?.search_mode === 'always',
    ),
    maxSummaryTokens: ctx.maxSummaryTokens,
  });
  const previous = prefix.previousSummary;
  const outcome = await runSummarizer({
    ...(ctx.summarizer === undefined ? {} : { summarizer: ctx.summarizer }),
    messages: prefix.replaced,
    ...(previous === undefined ? {} : { previousSummary: summaryBody(previous) }),
    instructions: plan.instructions,
    loops: plan.loops,
    targetTokens: summaryTargetTokens(
      prefix,
      ctx.compressionRatio,
      maxTokens,
      overrides.targetTokens,
    ),
    timeoutMs: ctx.summarizerTimeoutMs,
    ...(ctx.summaryGate === undefined ? {} : { summaryGate: ctx.summaryGate }),
    counter: ctx.counter,
    onUsage: (usage) => ctx.events.emit('usage', { sessionId, ...usage }),
    originalTokens: prefixTokens(prefix),
    maxTokens,
  });
  if (outcome.source === 'fallback') {
    ctx.events.emit('summarizer:fallback', {
      sessionId,
      reason: outcome.fallbackReason ?? 'error',
      detail: outcome.fallbackDetail ?? 'the summarizer failed; the extractive summary was used.',
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
    });
  }
  const draft = summaryDraft({
    id: `summary_${ctx.newId()}`,
    text: outcome.text,
    prefix,
    createdAt,
    source: outcome.source,
  });
  return {
    summary: { ...draft, tokenCount: ctx.counter.countMessage(draft) },
    source: outcome.source,
  };
}
