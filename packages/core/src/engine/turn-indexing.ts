import type { EngineContext } from './engine-context.ts';
import { indexInteractions, knowledgeTargets } from './knowledge-index.ts';
import type { SessionState } from './session-state.ts';

/**
 * Continuous indexing for one session: `queue()` indexes the finished interactions not in the
 * knowledge base yet, in the background. Runs one at a time, each on the state as it is when
 * it starts, once the caller's own work has yielded to the event loop (typically while it waits
 * for the LLM). `enabled` is false when the profile indexes nowhere.
 */
export function createTurnIndexing(
  ctx: EngineContext,
  state: SessionState,
): { enabled: boolean; queue(): void } {
  const id = state.id;
  const enabled = knowledgeTargets(ctx).length > 0;
  const indexFinished = async (): Promise<void> => {
    const todo = state.unindexed();
    if (todo.interactions.length === 0) return;
    try {
      await indexInteractions(ctx, id, todo.interactions, todo.before, state.userId);
      const seq = todo.interactions.at(-1)!.messages.at(-1)!.seq;
      state.indexedSeq = Math.max(state.indexedSeq ?? 0, seq);
    } catch (error) {
      ctx.events.emit('knowledge:error', { sessionId: id, operation: 'index', error });
    }
  };
  const queueIndexing = (): void => {
    const run = (state.indexing ?? Promise.resolve()).then(afterCurrentWork).then(indexFinished);
    state.indexing = run;
    void run.finally(() => {
      if (state.indexing === run) state.indexing = undefined;
    });
  };

  return { enabled, queue: queueIndexing };
}

/** Resolves on a later turn of the event loop, after the current chain of promises. */
export const afterCurrentWork = (): Promise<void> =>
  new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
