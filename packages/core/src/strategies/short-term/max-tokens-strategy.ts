import type { Interaction } from '../../model/interaction.ts';
import { type ConversationView, isOpening } from '../../model/interaction-log.ts';
import type { CountedMessage, Message } from '../../model/message.ts';
import { rebuild, sanitizeInteraction } from '../../model/prompt-validity.ts';
import type { TokenCounter } from '../../tokens/token-counter.ts';
import type { ShortTermStrategy, WindowSelection } from './short-term-strategy.ts';

/**
 * Decides whether a message is shown (and counted). Built from compiled `conditions`.
 * `isCurrent` is true for the conversation's newest interaction (`interaction.isCurrent`).
 */
export type MessageFilter = (
  message: CountedMessage,
  interaction: Interaction,
  isCurrent: boolean,
) => boolean;

export interface MaxTokensStrategyOptions {
  /** Prompt budget in tokens; -1 includes no interaction at all. */
  maxTokens: number;
  /** Keeps only messages for which it returns true; prompt validity is restored afterwards. */
  filter?: MessageFilter;
  counter: TokenCounter;
}

interface Shown {
  /** Message count of the source interaction when computed (the newest one still grows). */
  readonly length: number;
  /** Whether it was the newest interaction when computed (a new turn makes it an earlier one). */
  readonly isCurrent: boolean;
  readonly interaction: Interaction;
}

/**
 * `max_tokens`: walks the conversation backwards by interaction and keeps whole interactions
 * while the prompt (system messages + kept interactions + reply priming) stays within
 * `maxTokens`. Cost is proportional to the interactions kept, never to the history: each
 * interaction's filtered, validated form is computed once and cached.
 *
 * When the newest interaction alone does not fit, its user message is kept together with the
 * newest complete steps (an assistant message with all its tool results, or a plain assistant
 * message) that still fit, and `truncated` is set. If even the user message does not fit, no
 * interaction is kept. System messages are always kept, even past the budget.
 *
 * A conversation's opening interaction (assistant messages before the first user message: a
 * greeting, an outreach) is an interaction like the others: kept whole when it fits after every
 * newer one was kept, else dropped whole (never cut, even when it is the newest).
 */
export function createMaxTokensStrategy(options: MaxTokensStrategyOptions): ShortTermStrategy {
  const { maxTokens, filter, counter } = options;
  const cache = new WeakMap<Interaction, Shown>();
  const recount = (m: Message) => counter.countMessage(m);

  const shownOf = (source: Interaction, isCurrent: boolean): Interaction => {
    const hit = cache.get(source);
    if (hit?.length === source.messages.length && hit.isCurrent === isCurrent)
      return hit.interaction;
    let interaction = source;
    if (filter !== undefined) {
      const kept = source.messages.filter((m) => filter(m, source, isCurrent));
      // A turn whose user message is not shown is not shown at all; an opening has none.
      if (!isOpening(source) && kept[0]?.role !== 'user') interaction = rebuild(source, []);
      else if (kept.length !== source.messages.length) interaction = rebuild(source, kept);
    }
    if (interaction.messages.length > 0) interaction = sanitizeInteraction(interaction, recount);
    cache.set(source, { length: source.messages.length, isCurrent, interaction });
    return interaction;
  };

  return {
    id: 'max_tokens',
    select(view: ConversationView): WindowSelection {
      let used = counter.replyPrimingTokens;
      for (const m of view.system) used += m.tokenCount;
      const none = { system: view.system, interactions: [], tokenCount: used, truncated: false };
      if (maxTokens < 0) return none;

      const kept: Interaction[] = [];
      let truncated = false;
      let newest = true;
      for (let i = view.interactions.length - 1; i >= 0; i--) {
        const shown = shownOf(view.interactions[i]!, i === view.interactions.length - 1);
        if (shown.messages.length === 0) continue;
        if (used + shown.tokenCount <= maxTokens) {
          kept.push(shown);
          used += shown.tokenCount;
        } else if (newest) {
          const part = fitNewest(shown, maxTokens - used);
          if (part !== undefined) {
            kept.push(part);
            used += part.tokenCount;
            truncated = true;
          }
          break;
        } else break;
        newest = false;
      }
      kept.reverse();
      return { system: view.system, interactions: kept, tokenCount: used, truncated };
    },
  };
}

/**
 * The user message plus the newest whole steps of `interaction` that fit in `room` tokens
 * (undefined for an opening interaction, which is never cut).
 */
function fitNewest(interaction: Interaction, room: number): Interaction | undefined {
  if (isOpening(interaction)) return undefined;
  const [user, ...rest] = interaction.messages;
  if (user === undefined || user.tokenCount > room) return undefined;
  let left = room - user.tokenCount;
  const steps = splitSteps(rest);
  const tail: CountedMessage[] = [];
  for (let s = steps.length - 1; s >= 0; s--) {
    const step = steps[s]!;
    let cost = 0;
    for (const m of step) cost += m.tokenCount;
    if (cost > left) break;
    left -= cost;
    tail.unshift(...step);
  }
  return rebuild(interaction, [user, ...tail]);
}

/**
 * Splits a turn's replies into steps that can be dropped independently: an assistant message
 * together with every message up to the last tool result answering it.
 */
function splitSteps(messages: readonly CountedMessage[]): CountedMessage[][] {
  const steps: CountedMessage[][] = [];
  const stepOfCall = new Map<string, number>();
  for (const m of messages) {
    const owner = m.role === 'tool' ? stepOfCall.get(m.toolCallId ?? '') : undefined;
    if (owner === undefined) {
      steps.push([m]);
      for (const c of m.toolCalls ?? []) stepOfCall.set(c.id, steps.length - 1);
      continue;
    }
    const merged = steps.splice(owner).flat();
    merged.push(m);
    steps.push(merged);
    for (const [id, at] of stepOfCall) if (at > owner) stepOfCall.set(id, owner);
  }
  return steps;
}
