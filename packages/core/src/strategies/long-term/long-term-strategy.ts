import type { z } from 'zod';
import type { InteractionLog } from '../../model/interaction-log.ts';
import type { StoredMessage } from '../../store/store-spec.ts';
import type { PrefixPlan } from './plan-prefix.ts';

/**
 * The fields every long-term strategy entry has, built-in or registered: its id and its
 * triggers (see `TriggerCounter`). 0 turns a threshold off, and so does -1 ("never").
 */
export interface LongTermTriggerConfig {
  readonly long_term_memory_id: string;
  readonly input_tokens_threshold: number;
  readonly interaction_keep: number;
  readonly interaction_conditions: readonly string[];
  readonly on_tools_success_threshold: readonly string[];
  readonly on_tools_error_threshold: readonly string[];
  readonly interaction_threshold_qty: number;
  readonly interaction_threshold_tokens: number;
}

/** A profile entry of a registered (user) strategy: the shared fields plus its own `fields`. */
export interface CustomLongTermConfig extends LongTermTriggerConfig {
  readonly [field: string]: unknown;
}

/**
 * What a long-term strategy decided for a session. The engine carries it out with
 * compare-and-swap on the session's epoch: `summarize` replaces `prefix.replaced` with one
 * summary (the configured summarizer, extractive fallback on failure; the originals stay
 * archived); `erase` removes them for good, from the knowledge base too. Pinned system prompts
 * (`prefix.keepSeqs`) stay either way.
 */
export type LongTermPlan =
  | {
      readonly action: 'summarize';
      readonly prefix: PrefixPlan;
      /** Extra instructions for the summarizer, or null. */
      readonly instructions: string | null;
      /** Chain of Density passes at most. */
      readonly loops: number;
    }
  | { readonly action: 'erase'; readonly prefix: PrefixPlan };

/**
 * A long-term strategy: a pure decision over a session's history, run when one of its triggers
 * fires. It never does I/O; if the session changed meanwhile, the engine plans again from the
 * new state. `summarizer` and `neuralyzer` are the built-in ones; others are registered by id
 * with `createMemoryEngine({ longTermStrategies })` and `parseProfile(input, { longTermStrategies })`.
 */
export interface LongTermStrategy<Config extends LongTermTriggerConfig = CustomLongTermConfig> {
  /** The `long_term_memory_id` profile entries name it by. */
  readonly id: string;
  /**
   * The strategy's own profile fields (a zod object shape), next to the shared trigger fields.
   * Entries are strict: any other field is refused.
   */
  readonly fields?: z.ZodRawShape;
  /** What to replace now, or undefined to leave the session as it is. */
  plan(log: InteractionLog<StoredMessage>, config: Config): LongTermPlan | undefined;
}
