import type { CompiledCondition } from '../../conditions/compile-condition.ts';
import { type ConditionErrorHandler, holds } from '../../conditions/condition-holds.ts';
import { interactionVars, messageVars } from '../../conditions/condition-vars.ts';
import type { MemoryProfile } from '../../config/parse-profile.ts';
import type { Interaction } from '../../model/interaction.ts';
import type { TokenCounter } from '../../tokens/token-counter.ts';
import { createMaxTokensStrategy, type MessageFilter } from './max-tokens-strategy.ts';
import type { ShortTermStrategy } from './short-term-strategy.ts';

/**
 * A MessageFilter that shows a message only when every condition holds for it; a condition that
 * fails on a message does not hold, so the message is not shown.
 */
export function conditionFilter(
  conditions: readonly CompiledCondition[],
  onError?: ConditionErrorHandler,
): MessageFilter | undefined {
  if (conditions.length === 0) return undefined;
  let lastInteraction: Interaction | undefined;
  let lastVars: ReturnType<typeof interactionVars> | undefined;
  return (message, interaction, isCurrent) => {
    if (interaction !== lastInteraction || lastVars?.isCurrent !== isCurrent) {
      lastInteraction = interaction;
      lastVars = interactionVars(interaction, isCurrent);
    }
    const vars = { message: messageVars(message), interaction: lastVars };
    for (const condition of conditions) {
      if (!holds(condition, vars, message.id, onError)) return false;
    }
    return true;
  };
}

/** The profile's short-term strategies, in order. */
export function createShortTermStrategies(
  profile: MemoryProfile,
  counter: TokenCounter,
  onConditionError?: ConditionErrorHandler,
): ShortTermStrategy[] {
  return profile.shortTerm.map(({ config, conditions }) => {
    const filter = conditionFilter(conditions, onConditionError);
    return createMaxTokensStrategy({
      maxTokens: config.memory_max_tokens,
      counter,
      ...(filter === undefined ? {} : { filter }),
    });
  });
}
