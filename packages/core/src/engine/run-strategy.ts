import type { ProfileLongTermConfig } from '../config/profile-schema.ts';
import { checkedPlan, type PlanSource, planError } from '../strategies/long-term/checked-plan.ts';
import type { LongTermPlan } from '../strategies/long-term/long-term-strategy.ts';
import type { AnyLongTermStrategy } from '../strategies/long-term/strategy-registry.ts';
import { commitSummary, type SummarizeOverrides } from './compact-session.ts';
import type { EngineContext } from './engine-context.ts';
import { commitErase } from './erase-session.ts';
import type { SessionState } from './session-state.ts';

const MAX_ATTEMPTS = 3;

/**
 * Runs one long-term strategy on a session: it plans from the current state (a decision, which
 * may be async), the engine checks the plan and commits with compare-and-swap. A conflict
 * (another compaction or erase won, or the session was rewritten while an async plan ran)
 * re-plans from the new state, up to 3 times. True when the session changed. A strategy that
 * throws or returns something else than a plan fails with a MemValidationError naming it,
 * before anything is written.
 */
export async function runStrategy(
  ctx: EngineContext,
  state: SessionState,
  strategy: AnyLongTermStrategy,
  config: ProfileLongTermConfig,
  place: { index: number; collections: readonly string[]; overrides?: SummarizeOverrides },
): Promise<boolean> {
  const source: PlanSource = {
    id: config.long_term_memory_id,
    field: `long_term_memory_strategy[${place.index}]`,
  };
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    await state.sync(ctx.store);
    const epoch = state.epoch;
    const plan = await planOf(source, strategy, state, config);
    if (plan === undefined) return false;
    const committed =
      state.epoch !== epoch
        ? false
        : plan.action === 'summarize'
          ? await commitSummary(ctx, state, plan, config, place.overrides)
          : await commitErase(ctx, state, plan, place.collections, place.index);
    if (committed) return true;
    ctx.events.emit('compaction:conflict', { sessionId: state.id, attempt });
    state.loaded = false;
  }
  return false;
}

/** The strategy's plan for the session as it is now, awaited if async, and checked. */
async function planOf(
  source: PlanSource,
  strategy: AnyLongTermStrategy,
  state: SessionState,
  config: ProfileLongTermConfig,
): Promise<LongTermPlan | undefined> {
  const log = state.log;
  let value: unknown;
  try {
    value = strategy.plan(log, config);
    if (isThenable(value)) value = await value;
  } catch (error) {
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw planError(source, `plan() threw (${what.slice(0, 200)})`, error);
  }
  return checkedPlan(source, log, value);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
