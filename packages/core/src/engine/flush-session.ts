import { MemError } from '../errors/mem-error.ts';
import type { SummaryRecord } from '../store/store-spec.ts';
import type { EngineContext } from './engine-context.ts';
import type { SessionState } from './session-state.ts';

/** Conflicts a flush re-reads after before it reports the last one. */
const MAX_FLUSH_ATTEMPTS = 3;

/** True when the profile's `persistence_strategy` is `FLUSH`. */
export const flushes = (ctx: EngineContext): boolean =>
  ctx.profile.config.persistence_strategy === 'FLUSH';

/**
 * Whether a FLUSH session may hold more than its conversation: never flushed by this engine yet,
 * or rewritten since (a compaction, erase or pop here or by another writer bumps the epoch; an
 * append never does, and never adds an archive or a record).
 */
export const flushDue = (ctx: EngineContext, state: SessionState): boolean =>
  flushes(ctx) && (!state.loaded || state.flushedEpoch !== state.epoch);

/**
 * FLUSH persistence, after an inference (the answer appended, the long-term strategies run):
 * the stored session becomes exactly the current conversation, its active messages with the
 * summary messages (`Store.flush`: archives and summary records go, in one atomic step at the
 * epoch the conversation was read at). Active messages are never touched, so what other writers
 * appended meanwhile stays; when another writer rewrote the session first (a conflict), the
 * conversation is read again, with what they wrote, and flushed at the new epoch, up to 3 times;
 * then the last `MemStoreConflictError` is thrown. Nothing is lost either way.
 */
export async function flushSession(ctx: EngineContext, state: SessionState): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await state.sync(ctx.store);
    const expectedEpoch = state.epoch;
    if (state.flushedEpoch === expectedEpoch) return;
    try {
      const result = await ctx.store.flush(state.id, { expectedEpoch });
      // The active messages did not change: the cache stays valid at the new counters (unless
      // a reload since has already moved it on).
      if (state.epoch === expectedEpoch) {
        state.epoch = result.epoch;
        state.version = Math.max(state.version, result.version);
      }
      state.flushedEpoch = result.epoch;
      if (result.droppedMessages + result.droppedSummaries > 0) {
        ctx.events.emit('flushed', { sessionId: state.id, ...result });
      }
      return;
    } catch (error) {
      if (!MemError.hasCode(error, 'MEM_STORE_CONFLICT') || attempt >= MAX_FLUSH_ATTEMPTS) {
        throw error;
      }
      ctx.events.emit('flush:conflict', { sessionId: state.id, attempt });
      state.loaded = false;
    }
  }
}

/**
 * The record of a new summary, linked to the summary it folds in only if the store still holds
 * that one's record: a flush drops records, so a summary message may have none, and the store
 * accepts `previousSummaryId` only for a folded summary that has one. (A flush after this check
 * bumps the epoch, so the compaction conflicts and is planned again.)
 */
export async function linkedRecord(
  ctx: EngineContext,
  sessionId: string,
  record: SummaryRecord,
): Promise<SummaryRecord> {
  const previous = record.previousSummaryId;
  if (previous === undefined) return record;
  if ((await ctx.store.archived(sessionId, previous)).length > 0) return record;
  const { previousSummaryId: _, ...unlinked } = record;
  return unlinked;
}
