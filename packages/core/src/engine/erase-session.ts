import type { NeuralyzerStrategyConfig } from '../config/profile-schema.ts';
import { MemError } from '../errors/mem-error.ts';
import { isSummaryMessage } from '../model/message.ts';
import type { SummaryRecord } from '../store/store-spec.ts';
import type { EngineContext } from './engine-context.ts';
import { forgetInKnowledgeBase } from './knowledge-index.ts';
import { planPrefix } from './plan-prefix.ts';
import type { SessionState } from './session-state.ts';

/**
 * NeuralyzerStrategy: erases everything older than the last `interaction_keep` interactions,
 * for good — from the store (summaries and their archived originals included) and from the
 * knowledge base. System prompts are pinned and survive.
 */
export async function eraseSession(
  ctx: EngineContext,
  state: SessionState,
  config: NeuralyzerStrategyConfig,
  collections: readonly string[],
  strategyIndex: number,
): Promise<boolean> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    await state.sync(ctx.store);
    const plan = planPrefix(state.log, config.interaction_keep);
    if (plan === undefined) return false;
    // Read the summary links before they are erased, to forget every nested summary's chunks
    // and the chunks of every turn those summaries archived.
    const nested = nestedSummaries(
      plan.replaced.filter(isSummaryMessage).map((m) => m.id),
      await ctx.store.summaries(state.id),
    );
    try {
      const result = await ctx.store.erase(state.id, {
        expectedEpoch: state.epoch,
        throughSeq: plan.throughSeq,
        ...(plan.keepSeqs.length > 0 ? { keepSeqs: plan.keepSeqs } : {}),
      });
      await state.load(ctx.store);
      ctx.events.emit('erased', {
        sessionId: state.id,
        strategyIndex,
        erasedCount: result.erasedCount,
        throughSeq: plan.throughSeq,
      });
    } catch (error) {
      if (!MemError.hasCode(error, 'MEM_STORE_CONFLICT')) throw error;
      ctx.events.emit('compaction:conflict', { sessionId: state.id, attempt });
      state.loaded = false;
      continue;
    }
    // Indexing that read the session before the erasure finishes before the forgetting; any
    // started after the reload sees only what is left.
    await state.settleIndexing();
    await forgetInKnowledgeBase(ctx, state.id, collections, {
      messageIds: [...plan.replaced.map((m) => m.id), ...nested.archivedIds],
      summaryIds: nested.summaryIds,
    });
    return true;
  }
  return false;
}

/**
 * The given summaries and every summary they folded in, transitively, with the ids of every
 * message they archived.
 */
function nestedSummaries(
  ids: readonly string[],
  records: readonly SummaryRecord[],
): { summaryIds: string[]; archivedIds: string[] } {
  const byId = new Map(records.map((r) => [r.id, r]));
  const out = new Set<string>();
  const archived: string[] = [];
  const visit = (id: string | undefined) => {
    if (id === undefined || out.has(id)) return;
    out.add(id);
    const record = byId.get(id);
    if (record === undefined) return;
    archived.push(...record.originalMessageIds);
    visit(record.previousSummaryId);
  };
  for (const id of ids) visit(id);
  return { summaryIds: [...out], archivedIds: archived };
}
