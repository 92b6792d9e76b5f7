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
 * A long-term strategy: a decision over a session's history, run when one of its triggers
 * fires. `summarizer` and `neuralyzer` are the built-in ones; others are registered by id
 * with `createMemoryEngine({ longTermStrategies })` and `parseProfile(input, { longTermStrategies })`.
 *
 * `plan()` may be async (return a Promise); it should still be quick, as the session's other
 * long-term runs wait for it. If the session was rewritten meanwhile (another compaction,
 * erase or clear), the engine plans again from the new state. What it returns is checked before
 * anything is written: `undefined`, or a plan whose `prefix` is the session's own messages
 * through `throughSeq`, each replaced or kept (`planPrefix(log, keep)` builds one). A `plan()`
 * that throws or returns anything else is reported as `compaction:error` with a
 * `MemValidationError` naming the strategy; history is unchanged and the session stays usable.
 */
export interface LongTermStrategy<Config extends LongTermTriggerConfig = CustomLongTermConfig> {
  /** The `long_term_memory_id` profile entries name it by. */
  readonly id: string;
  /**
   * The strategy's own profile fields (a zod object shape), next to the shared trigger fields.
   * Entries are strict: any other field is refused.
   */
  readonly fields?: z.ZodRawShape;
  /** What to replace now, or undefined to leave the session as it is (or a Promise of either). */
  plan(
    log: InteractionLog<StoredMessage>,
    config: Config,
  ): LongTermPlan | undefined | Promise<LongTermPlan | undefined>;
}

/** A strategy whose `plan()` is synchronous, as the built-in ones are: call it and use the plan. */
export interface SyncLongTermStrategy<Config extends LongTermTriggerConfig = CustomLongTermConfig>
  extends LongTermStrategy<Config> {
  plan(log: InteractionLog<StoredMessage>, config: Config): LongTermPlan | undefined;
}
