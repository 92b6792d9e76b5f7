import type { ProfileInput } from '../../config/profile-schema.ts';

/** How a `Memory` bounds its conversation. */
export type MemoryStrategy = 'auto' | 'sliding' | 'summary' | 'none';

/** `sliding` keeps this many of the newest turns. */
export const SLIDING_TURNS = 10;
/** `summary` compresses once more turns than this are retained... */
export const SUMMARY_THRESHOLD_TURNS = 10;
/**
 * ...and keeps this many of the newest turns verbatim. Half the threshold, so a compression
 * frees room for five more turns before the next one: one summarizer call per five turns,
 * while the model always sees at least the last five exchanges word for word.
 */
export const SUMMARY_KEEP_TURNS = 5;
/**
 * `auto` keeps this many of the newest turns verbatim when it summarizes. Fewer than `summary`,
 * because `auto` compresses on a token budget: the kept turns must leave room under
 * `maxTokens` for the summary and the next turns, or every add would summarize again.
 */
export const AUTO_KEEP_TURNS = 4;
/** Chain of Density passes for a summarizer that runs the loop itself (`chainOfDensity`). */
export const CHAIN_OF_DENSITY_LOOPS = 5;

export interface StrategyProfileOptions {
  /** Token budget of `auto`: the prompt window, and the turn size that triggers a summary. */
  maxTokens: number;
  /** Hard backstop on retained turns, for every strategy. */
  maxTurns: number;
  /**
   * The summarizer runs Chain of Density itself (`capabilities.chainOfDensity`). Otherwise the
   * summarizer is called once per compression (`cod_max_loops: 1`), as a LazyBridge summarizer
   * is: a plain function would else be called once per density pass.
   */
  chainOfDensity: boolean;
}

/**
 * The engine profile of a `Memory` strategy. Entries run in order; the `maxTurns` backstop is
 * always the last long-term entry.
 *
 * | strategy  | short-term                  | long-term                                                                |
 * |-----------|-----------------------------|--------------------------------------------------------------------------|
 * | `sliding` | none                        | neuralyzer: more than 10 turns → erase all but the newest 10            |
 * | `summary` | none                        | summarizer: more than 10 turns → summarize all but the newest 5         |
 * | `auto`    | `max_tokens` = `maxTokens`  | summarizer: turns over `maxTokens` tokens → summarize all but newest 4  |
 * | `none`    | none                        | (backstop only)                                                          |
 * | all       |                             | backstop neuralyzer: more than `maxTurns` turns → keep the newest `maxTurns` |
 *
 * `summary` and `auto` use the configured summarizer, or the engine's extractive (no-LLM)
 * fallback when there is none. Thresholds that a strategy does not use are set to 0 (off), so
 * the schema's defaults (20 turns, 20,000 tokens) never fire behind the user's back.
 */
export function strategyProfile(
  strategy: MemoryStrategy,
  options: StrategyProfileOptions,
): ProfileInput {
  const backstop = {
    long_term_memory_id: 'neuralyzer' as const,
    interaction_threshold_qty: options.maxTurns,
    interaction_threshold_tokens: 0,
    interaction_keep: options.maxTurns,
  };
  const loops = options.chainOfDensity ? CHAIN_OF_DENSITY_LOOPS : 1;
  switch (strategy) {
    case 'sliding':
      return {
        long_term_memory_strategy: [
          {
            long_term_memory_id: 'neuralyzer',
            interaction_threshold_qty: SLIDING_TURNS,
            interaction_threshold_tokens: 0,
            interaction_keep: SLIDING_TURNS,
          },
          backstop,
        ],
      };
    case 'summary':
      return {
        long_term_memory_strategy: [
          {
            long_term_memory_id: 'summarizer',
            interaction_threshold_qty: SUMMARY_THRESHOLD_TURNS,
            interaction_threshold_tokens: 0,
            interaction_keep: SUMMARY_KEEP_TURNS,
            cod_max_loops: loops,
          },
          backstop,
        ],
      };
    case 'auto':
      return {
        short_term_memory_strategy: [
          { memory_strategy_id: 'max_tokens', memory_max_tokens: options.maxTokens },
        ],
        long_term_memory_strategy: [
          {
            long_term_memory_id: 'summarizer',
            interaction_threshold_qty: 0,
            interaction_threshold_tokens: options.maxTokens,
            interaction_keep: AUTO_KEEP_TURNS,
            cod_max_loops: loops,
          },
          backstop,
        ],
      };
    case 'none':
      return { long_term_memory_strategy: [backstop] };
  }
}

/**
 * Whether an erasure of this strategy's engine comes from the `maxTurns` backstop. The engine's
 * `erased` event does not say which entry erased, but the profile decides it: `summary`, `auto`
 * and `none` have no other neuralyzer. In `sliding`, entries run in order, so with `maxTurns`
 * of 10 or more the sliding window always runs first and leaves the backstop nothing to erase;
 * with fewer, the backstop fires first each time and the window never does.
 */
export function erasuresAreBackstop(strategy: MemoryStrategy, maxTurns: number): boolean {
  return strategy !== 'sliding' || maxTurns < SLIDING_TURNS;
}

/**
 * Summary length the engine aims for. `auto` asks for at most a quarter of `maxTokens`, so the
 * summary (always shown) leaves most of the window to the newest turns; the engine never asks
 * for less than 64 tokens. Other strategies keep the engine's default.
 */
export function summaryTokenBudget(
  strategy: MemoryStrategy,
  maxTokens: number,
): number | undefined {
  return strategy === 'auto' ? Math.min(2000, Math.max(64, Math.floor(maxTokens / 4))) : undefined;
}
