import type { SummarizerStrategyConfig } from '../config/profile-schema.ts';
import { MemError } from '../errors/mem-error.ts';
import type { CountedMessage } from '../model/message.ts';
import { SUMMARY_HEADER, summaryBody } from '../model/summary-message.ts';
import type { SummaryRecord } from '../store/store-spec.ts';
import { MIN_EXTRACTIVE_SUMMARY_TOKENS } from '../summarize/extractive-summarizer.ts';
import { runSummarizer } from '../summarize/run-summarizer.ts';
import type { EngineContext } from './engine-context.ts';
import { indexCompaction, knowledgeTargets } from './knowledge-index.ts';
import { type PrefixPlan, planPrefix } from './plan-prefix.ts';
import type { SessionState } from './session-state.ts';

const MAX_ATTEMPTS = 3;

/**
 * SummarizerStrategy: summarizes everything older than the last `interaction_keep` interactions
 * (earlier summaries folded in), then commits with compare-and-swap on the epoch planned at.
 * The summarizer runs outside any lock: appends made meanwhile land after `throughSeq` and stay.
 * A conflict (another compaction or erase won) re-plans from the new state, up to 3 times.
 * Summarizer failures never reach history: the extractive fallback runs and an event says so.
 */
export async function compactSession(
  ctx: EngineContext,
  state: SessionState,
  config: SummarizerStrategyConfig,
  overrides: SummarizeOverrides = {},
): Promise<boolean> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    await state.sync(ctx.store);
    const plan = planPrefix(state.log, config.interaction_keep);
    if (plan === undefined) return false;
    const epoch = state.epoch;
    const { summary, record, source } = await summarize(ctx, state.id, plan, config, overrides);
    try {
      await ctx.store.compact(state.id, {
        expectedEpoch: epoch,
        throughSeq: plan.throughSeq,
        ...(plan.keepSeqs.length > 0 ? { keepSeqs: plan.keepSeqs } : {}),
        summary,
        record,
      });
    } catch (error) {
      if (!MemError.hasCode(error, 'MEM_STORE_CONFLICT')) throw error;
      ctx.events.emit('compaction:conflict', { sessionId: state.id, attempt });
      state.loaded = false;
      continue;
    }
    await state.load(ctx.store);
    ctx.events.emit('compacted', {
      sessionId: state.id,
      record,
      source,
      durationMs: record.createdAt - summary.createdAt,
    });
    if (config.knowledge_base !== null && ctx.knowledgeBase !== undefined) {
      const indexedSeq = state.indexedSeq ?? 0;
      await indexCompaction(ctx, state.id, config, summary, plan.replaced, indexedSeq);
      state.indexedSeq = Math.max(indexedSeq, plan.throughSeq);
    }
    return true;
  }
  return false;
}

/** Per-call settings of a summarization requested directly (e.g. by MemoryManager.compress). */
export interface SummarizeOverrides {
  /** Summary length in tokens, instead of `compressionRatio` x the replaced tokens. */
  targetTokens?: number;
}

async function summarize(
  ctx: EngineContext,
  sessionId: string,
  plan: PrefixPlan,
  config: SummarizerStrategyConfig,
  overrides: SummarizeOverrides,
): Promise<{ summary: CountedMessage; record: SummaryRecord; source: 'summarizer' | 'fallback' }> {
  const started = ctx.now();
  const originalTokens = plan.replaced.reduce((s, m) => s + m.tokenCount, 0);
  // The summary text is at most maxSummaryTokens, and its message at most half the tightest window.
  const maxTokens = summaryTextCap(ctx);
  const targetTokens = Math.min(
    maxTokens,
    overrides.targetTokens ??
      Math.max(MIN_EXTRACTIVE_SUMMARY_TOKENS, Math.round(originalTokens * ctx.compressionRatio)),
  );
  const previous = plan.previousSummary;
  const outcome = await runSummarizer({
    ...(ctx.summarizer === undefined ? {} : { summarizer: ctx.summarizer }),
    messages: plan.replaced,
    ...(previous === undefined ? {} : { previousSummary: summaryBody(previous) }),
    instructions: config.instructions,
    loops: config.cod_max_loops,
    targetTokens,
    timeoutMs: ctx.summarizerTimeoutMs,
    counter: ctx.counter,
    onUsage: (usage) => ctx.events.emit('usage', { sessionId, ...usage }),
    originalTokens,
    maxTokens,
  });
  if (outcome.source === 'fallback') {
    ctx.events.emit('summarizer:fallback', {
      sessionId,
      reason: outcome.fallbackReason ?? 'error',
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
    });
  }

  const range = timeRange(plan);
  const earlier = previous?.metadata?.interactions;
  const interactions = plan.interactions + (typeof earlier === 'number' ? earlier : 0);
  const id = `summary_${ctx.newId()}`;
  const content = `${SUMMARY_HEADER} (${interactions} interactions, ${iso(range.start)} to ${iso(range.end)}):\n${outcome.text}`;
  const draft = {
    id,
    role: 'system' as const,
    content,
    createdAt: started,
    metadata: { kind: 'summary', timeRange: range, interactions, source: outcome.source },
  };
  const summary: CountedMessage = { ...draft, tokenCount: ctx.counter.countMessage(draft) };
  const record: SummaryRecord = {
    id,
    originalMessageIds: plan.replaced.map((m) => m.id),
    fromSeq: plan.replaced[0]!.seq,
    throughSeq: plan.throughSeq,
    originalTokenCount: originalTokens,
    tokenCount: summary.tokenCount,
    compressionRatio: originalTokens / summary.tokenCount,
    timeRange: range,
    createdAt: ctx.now(),
    ...(previous === undefined ? {} : { previousSummaryId: previous.id }),
  };
  return { summary, record, source: outcome.source };
}

/** Tokens of a summary message around its text: overhead, role and the header line. */
const SUMMARY_FRAME_TOKENS = 40;

/**
 * Most tokens a summary's text may have: `maxSummaryTokens`, always; with a short-term window,
 * also no more than fits a summary message of half the tightest window, or of an eighth of it
 * when knowledge is retrieved into every context (the retrieved turns carry the detail, so the
 * budget goes to them); at least 64.
 */
function summaryTextCap(ctx: EngineContext): number {
  const budgets = ctx.profile.shortTerm.map((s) => s.config.memory_max_tokens).filter((b) => b > 0);
  if (budgets.length === 0) return ctx.maxSummaryTokens;
  const retrieves = knowledgeTargets(ctx).some(
    (t) => t.config.knowledge_base?.search_mode === 'always',
  );
  const share = retrieves ? SUMMARY_SHARE_WITH_RETRIEVAL : SUMMARY_SHARE;
  const cap = Math.floor(Math.min(...budgets) * share) - SUMMARY_FRAME_TOKENS;
  return Math.min(ctx.maxSummaryTokens, Math.max(MIN_EXTRACTIVE_SUMMARY_TOKENS, cap));
}

/** Share of the tightest window a summary message may fill. */
const SUMMARY_SHARE = 1 / 2;
/** The same when knowledge is retrieved into every context. */
const SUMMARY_SHARE_WITH_RETRIEVAL = 1 / 8;

function timeRange(plan: PrefixPlan): { start: number; end: number } {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const m of plan.replaced) {
    const range = m.metadata?.timeRange as { start: number; end: number } | undefined;
    start = Math.min(start, range?.start ?? m.createdAt);
    end = Math.max(end, range?.end ?? m.createdAt);
  }
  return { start, end };
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
