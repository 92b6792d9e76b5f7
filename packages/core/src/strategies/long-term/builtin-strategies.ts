import type {
  NeuralyzerStrategyConfig,
  SummarizerStrategyConfig,
} from '../../config/profile-schema.ts';
import type { SyncLongTermStrategy } from './long-term-strategy.ts';
import { planPrefix } from './plan-prefix.ts';

/**
 * SummarizerStrategy: summarizes everything older than the last `interaction_keep`
 * interactions, earlier summaries folded in.
 */
export const summarizerStrategy: SyncLongTermStrategy<SummarizerStrategyConfig> = {
  id: 'summarizer',
  plan(log, config) {
    const prefix = planPrefix(log, config.interaction_keep);
    if (prefix === undefined) return undefined;
    return {
      action: 'summarize',
      prefix,
      instructions: config.instructions,
      loops: config.cod_max_loops,
    };
  },
};

/**
 * NeuralyzerStrategy: erases everything older than the last `interaction_keep` interactions,
 * for good. System prompts are pinned and survive.
 */
export const neuralyzerStrategy: SyncLongTermStrategy<NeuralyzerStrategyConfig> = {
  id: 'neuralyzer',
  plan(log, config) {
    const prefix = planPrefix(log, config.interaction_keep);
    return prefix === undefined ? undefined : { action: 'erase', prefix };
  },
};
