import { type AppendedFacts, TriggerCounter } from '../strategies/long-term/triggers.ts';
import type { EngineContext } from './engine-context.ts';
import { conditionErrorReporter } from './engine-events.ts';
import { flushDue, flushes, flushSession } from './flush-session.ts';
import { runStrategy } from './run-strategy.ts';
import type { SessionState } from './session-state.ts';

/**
 * When a session's long-term strategies run, one run at a time, in profile order; with FLUSH
 * persistence each run ends with a flush (also when no strategy was due but the session may hold
 * more than its conversation: see `flushDue`).
 */
export interface LongTermRuns {
  /**
   * The strategies whose trigger holds now (each reported as `triggered`): strategy index ->
   * whether it runs unconditionally (tool and forced triggers) or re-checks when its turn comes.
   */
  due(facts: AppendedFacts | undefined, force: boolean): Map<number, boolean>;
  /** Queues them; resolves when the run (or the one in flight, which picks them up) ends. */
  schedule(indexes: Map<number, boolean>): Promise<void>;
}

export function createLongTermRuns(
  ctx: EngineContext,
  state: SessionState,
  collections: readonly string[],
): LongTermRuns {
  const id = state.id;
  const triggers = ctx.profile.longTerm.map(
    (e) =>
      new TriggerCounter(
        e.config,
        e.interactionConditions,
        conditionErrorReporter(ctx.events, id, 'trigger'),
      ),
  );

  const due = (facts: AppendedFacts | undefined, force: boolean): Map<number, boolean> => {
    const out = new Map<number, boolean>();
    triggers.forEach((trigger, i) => {
      const reasons = force
        ? ['forced']
        : trigger.reasons(state.log.interactions, state.epoch, state.lastInputTokens, facts);
      if (reasons.length === 0) return;
      ctx.events.emit('triggered', {
        sessionId: id,
        strategy: trigger.config.long_term_memory_id,
        strategyIndex: i,
        reasons,
      });
      // Tool and forced triggers are events: they hold even if the counts drop meanwhile.
      out.set(i, force || reasons.some((r) => r.startsWith('on_tools_')));
    });
    return out;
  };

  /** Strategy index -> whether it runs unconditionally (else its trigger is re-checked). */
  const pending = new Map<number, boolean>();
  const stillDue = (i: number): boolean =>
    pending.get(i) === true ||
    triggers[i]!.reasons(state.log.interactions, state.epoch, state.lastInputTokens, undefined)
      .length > 0;
  const schedule = (indexes: Map<number, boolean>): Promise<void> => {
    for (const [i, always] of indexes) pending.set(i, always || pending.get(i) === true);
    if (pending.size === 0 && !flushDue(ctx, state)) return state.running ?? Promise.resolve();
    if (state.running !== undefined) {
      state.rerun = true;
      return state.running;
    }
    const run = async () => {
      do {
        state.rerun = false;
        for (const i of [...pending.keys()].sort((a, b) => a - b)) {
          const entry = ctx.profile.longTerm[i]!.config;
          const strategy = ctx.strategies.get(entry.long_term_memory_id)!;
          try {
            await state.sync(ctx.store);
            // Queued while another run went on: run only if the trigger still holds.
            const go = stillDue(i);
            pending.delete(i);
            if (!go) continue;
            const changed = await runStrategy(ctx, state, strategy, entry, {
              index: i,
              collections,
            });
            if (changed) state.lastInputTokens = undefined;
          } catch (error) {
            pending.delete(i);
            ctx.events.emit('compaction:error', { sessionId: id, error });
          }
        }
        if (flushes(ctx)) {
          try {
            await flushSession(ctx, state);
          } catch (error) {
            ctx.events.emit('flush:error', { sessionId: id, error });
          }
        }
      } while (state.rerun && (pending.size > 0 || flushDue(ctx, state)));
    };
    state.running = run().finally(() => {
      state.running = undefined;
    });
    return state.running;
  };

  return { due, schedule };
}
