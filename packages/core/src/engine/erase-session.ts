import { MemError } from '../errors/mem-error.ts';
import { isSummaryMessage } from '../model/message.ts';
import type { LongTermPlan } from '../strategies/long-term/long-term-strategy.ts';
import { nestedSummaries } from '../strategies/long-term/nested-summaries.ts';
import type { EngineContext } from './engine-context.ts';
import { forgetInKnowledgeBase } from './knowledge-index.ts';
import type { SessionState } from './session-state.ts';

/**
 * Carries out an `erase` plan, for good: from the store (summaries and their archived originals
 * included) with compare-and-swap on the epoch, then from the knowledge base. False when another
 * compaction or erase won.
 */
export async function commitErase(
  ctx: EngineContext,
  state: SessionState,
  plan: Extract<LongTermPlan, { action: 'erase' }>,
  collections: readonly string[],
  strategyIndex: number,
): Promise<boolean> {
  const { prefix } = plan;
  // Read the summary links before they are erased, to forget every nested summary's chunks
  // and the chunks of every turn those summaries archived.
  const nested = nestedSummaries(
    prefix.replaced.filter(isSummaryMessage).map((m) => m.id),
    await ctx.store.summaries(state.id),
  );
  try {
    const result = await ctx.store.erase(state.id, {
      expectedEpoch: state.epoch,
      throughSeq: prefix.throughSeq,
      ...(prefix.keepSeqs.length > 0 ? { keepSeqs: prefix.keepSeqs } : {}),
    });
    await state.load(ctx.store);
    ctx.events.emit('erased', {
      sessionId: state.id,
      strategyIndex,
      erasedCount: result.erasedCount,
      throughSeq: prefix.throughSeq,
    });
  } catch (error) {
    // Another compaction or erase won: the caller plans again from the new state.
    if (!MemError.hasCode(error, 'MEM_STORE_CONFLICT')) throw error;
    return false;
  }
  // Indexing that read the session before the erasure finishes before the forgetting; any
  // started after the reload sees only what is left.
  await state.settleIndexing();
  await forgetInKnowledgeBase(ctx, state.id, collections, {
    messageIds: [...prefix.replaced.map((m) => m.id), ...nested.archivedIds],
    summaryIds: nested.summaryIds,
  });
  return true;
}
