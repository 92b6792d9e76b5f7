import type { Interaction } from '../../model/interaction.ts';
import type { ConversationView } from '../../model/interaction-log.ts';
import type { CountedMessage } from '../../model/message.ts';

/** What a short-term strategy chose for the next prompt. */
export interface WindowSelection extends ConversationView {
  /** The interactions kept, oldest first, as they will be shown (filtered, made valid). */
  readonly interactions: readonly Interaction[];
  /** Prompt tokens of the selection: system + interactions + reply priming. */
  readonly tokenCount: number;
  /** The newest interaction was too large for the budget and only part of it was kept. */
  readonly truncated: boolean;
}

/** Picks the messages of the next prompt from a conversation. */
export interface ShortTermStrategy {
  readonly id: string;
  select(view: ConversationView): WindowSelection;
}

/** Flattens a selection into the message list to send: system messages, then the turns. */
export function selectionMessages(selection: ConversationView): CountedMessage[] {
  const out: CountedMessage[] = [...selection.system];
  for (const interaction of selection.interactions) {
    for (const m of interaction.messages) out.push(m);
  }
  return out;
}

/**
 * Applies strategies in order, each to what the previous one kept. With no strategy the whole
 * conversation is kept (made valid).
 */
export function selectWindow(
  view: ConversationView,
  strategies: readonly ShortTermStrategy[],
  replyPrimingTokens: number,
): WindowSelection {
  let current: WindowSelection | undefined;
  for (const strategy of strategies) {
    const next = strategy.select(current ?? view);
    current = current?.truncated ? { ...next, truncated: true } : next;
  }
  if (current !== undefined) return current;
  let tokenCount = replyPrimingTokens;
  for (const m of view.system) tokenCount += m.tokenCount;
  for (const i of view.interactions) tokenCount += i.tokenCount;
  return { system: view.system, interactions: view.interactions, tokenCount, truncated: false };
}
