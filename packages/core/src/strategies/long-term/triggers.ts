import type { CompiledCondition } from '../../conditions/compile-condition.ts';
import { type ConditionErrorHandler, holds } from '../../conditions/condition-holds.ts';
import { interactionVars, messageVars } from '../../conditions/condition-vars.ts';
import type { Interaction } from '../../model/interaction.ts';
import type { CountedMessage } from '../../model/message.ts';
import type { LongTermTriggerConfig } from './long-term-strategy.ts';

/** What the caller just appended, for the tool triggers. */
export interface AppendedFacts {
  toolSuccesses: ReadonlySet<string>;
  toolErrors: ReadonlySet<string>;
}

export function appendedFacts(messages: readonly CountedMessage[]): AppendedFacts {
  const toolSuccesses = new Set<string>();
  const toolErrors = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'tool' || m.toolName === undefined) continue;
    (m.isError === true ? toolErrors : toolSuccesses).add(m.toolName);
  }
  return { toolSuccesses, toolErrors };
}

/**
 * Decides whether a long-term strategy runs. Any met trigger fires: more counted interactions
 * than `interaction_threshold_qty`, more counted tokens than `interaction_threshold_tokens`,
 * a reported input larger than `input_tokens_threshold`, or a listed tool that just succeeded or
 * failed. 0 turns a threshold off, and so does -1 ("never"). `interaction_conditions` decide
 * which interactions count (each is evaluated with the interaction and its user message); a
 * condition that fails at run time does not hold, so the interaction does not count.
 *
 * Counting is incremental: closed interactions are counted once per epoch, so a check costs
 * O(1) amortized, not O(history).
 */
export class TriggerCounter {
  private counted = 0;
  private tokens = 0;
  private upTo = 0;
  private epoch = -1;
  private source: readonly Interaction[] | undefined;

  constructor(
    readonly config: LongTermTriggerConfig,
    private readonly conditions: readonly CompiledCondition[],
    private readonly onConditionError?: ConditionErrorHandler,
  ) {}

  reasons(
    interactions: readonly Interaction[],
    epoch: number,
    lastInputTokens: number | undefined,
    facts: AppendedFacts | undefined,
  ): string[] {
    const c = this.config;
    const reasons: string[] = [];
    const { count, tokens } = this.totals(interactions, epoch);
    if (c.interaction_threshold_qty > 0 && count > c.interaction_threshold_qty) {
      reasons.push(`interaction_threshold_qty: ${count} > ${c.interaction_threshold_qty}`);
    }
    if (c.interaction_threshold_tokens > 0 && tokens > c.interaction_threshold_tokens) {
      reasons.push(`interaction_threshold_tokens: ${tokens} > ${c.interaction_threshold_tokens}`);
    }
    if (
      c.input_tokens_threshold > 0 &&
      lastInputTokens !== undefined &&
      lastInputTokens > c.input_tokens_threshold
    ) {
      reasons.push(`input_tokens_threshold: ${lastInputTokens} > ${c.input_tokens_threshold}`);
    }
    if (facts !== undefined) {
      for (const tool of c.on_tools_success_threshold) {
        if (facts.toolSuccesses.has(tool)) reasons.push(`on_tools_success_threshold: ${tool}`);
      }
      for (const tool of c.on_tools_error_threshold) {
        if (facts.toolErrors.has(tool)) reasons.push(`on_tools_error_threshold: ${tool}`);
      }
    }
    return reasons;
  }

  /** Counted interactions and their tokens; the newest (still open) one is counted fresh. */
  private totals(interactions: readonly Interaction[], epoch: number) {
    if (epoch !== this.epoch || interactions !== this.source || this.upTo > interactions.length) {
      this.epoch = epoch;
      this.source = interactions;
      this.counted = 0;
      this.tokens = 0;
      this.upTo = 0;
    }
    const closed = Math.max(0, interactions.length - 1);
    for (; this.upTo < closed; this.upTo++) {
      const i = interactions[this.upTo]!;
      if (this.counts(i, false)) {
        this.counted++;
        this.tokens += i.tokenCount;
      }
    }
    const open = interactions[closed];
    const extra = open !== undefined && this.counts(open, true);
    return {
      count: this.counted + (extra ? 1 : 0),
      tokens: this.tokens + (extra ? open.tokenCount : 0),
    };
  }

  private counts(interaction: Interaction, isCurrent: boolean): boolean {
    if (this.conditions.length === 0) return true;
    const user = interaction.messages[0];
    if (user === undefined) return false;
    const vars = {
      message: messageVars(user),
      interaction: interactionVars(interaction, isCurrent),
    };
    return this.conditions.every((c) => holds(c, vars, user.id, this.onConditionError));
  }
}
