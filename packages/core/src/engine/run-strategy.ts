import type { ProfileLongTermConfig } from '../config/profile-schema.ts';
import type { AnyLongTermStrategy } from '../strategies/long-term/strategy-registry.ts';
import { commitSummary, type SummarizeOverrides } from './compact-session.ts';
import type { EngineContext } from './engine-context.ts';
import { commitErase } from './erase-session.ts';
import type { SessionState } from './session-state.ts';

const MAX_ATTEMPTS = 3;

/**
 * Runs one long-term strategy on a session: it plans from the current state (a pure decision),
 * the engine commits with compare-and-swap. A conflict (another compaction or erase won)
 * re-plans from the new state, up to 3 times. True when the session changed.
 */
export async function runStrategy(
  ctx: EngineContext,
  state: SessionState,
  strategy: AnyLongTermStrategy,
  config: ProfileLongTermConfig,
  place: { index: number; collections: readonly string[]; overrides?: SummarizeOverrides },
): Promise<boolean> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    await state.sync(ctx.store);
    const plan = strategy.plan(state.log, config);
    if (plan === undefined) return false;
    const committed =
      plan.action === 'summarize'
        ? await commitSummary(ctx, state, plan, config, place.overrides)
        : await commitErase(ctx, state, plan, place.collections, place.index);
    if (committed) return true;
    ctx.events.emit('compaction:conflict', { sessionId: state.id, attempt });
    state.loaded = false;
  }
  return false;
}
