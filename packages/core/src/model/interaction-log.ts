import type { Interaction } from './interaction.ts';
import type { CountedMessage } from './message.ts';

/** The conversation as strategies see it: system messages apart, the rest grouped by turn. */
export interface ConversationView {
  /** System messages (summaries included), in order. Always kept. */
  readonly system: readonly CountedMessage[];
  /**
   * Interactions, oldest first: the opening interaction first when the conversation starts with
   * assistant messages (see `isOpening`), then the human turns.
   */
  readonly interactions: readonly Interaction[];
}

/**
 * True for a conversation's opening interaction: the messages before its first user message (an
 * assistant greeting or outreach, with its tool calls and results; see `InteractionLog`). Only
 * the first interaction of a conversation can be one; it is kept or dropped as a whole.
 */
export function isOpening(interaction: Interaction): boolean {
  const first = interaction.messages[0];
  return first !== undefined && first.role !== 'user';
}

/** An interaction that may still grow (the newest one). */
export class OpenInteraction<M extends CountedMessage = CountedMessage> implements Interaction {
  readonly messages: M[] = [];
  tokenCount = 0;
  readonly toolNames: string[] = [];
  hasError = false;

  constructor(readonly index: number) {}

  push(message: M): void {
    this.messages.push(message);
    this.tokenCount += message.tokenCount;
    if (message.toolCalls) {
      for (const call of message.toolCalls) {
        if (!this.toolNames.includes(call.name)) this.toolNames.push(call.name);
      }
    }
    if (message.role === 'tool' && message.isError === true) this.hasError = true;
  }
}

/**
 * Groups messages into interactions incrementally: appending a message costs O(1) and touches
 * only the newest interaction, so keeping the view current never re-reads history.
 *
 * Non-system messages before the first user message form the opening interaction,
 * `interactions[0]`, part of the conversation like any other turn: the greeting or outreach a
 * conversation starts with, or, once a long-term strategy summarized or erased a turn's user
 * message, the replies that came after it. The messages given must start where the active
 * conversation starts, not inside a turn (a tail read drops such a fragment).
 */
export class InteractionLog<M extends CountedMessage = CountedMessage> implements ConversationView {
  readonly system: M[] = [];
  readonly interactions: OpenInteraction<M>[] = [];

  constructor(
    messages: Iterable<M> = [],
    private readonly firstIndex = 0,
  ) {
    for (const message of messages) this.append(message);
  }

  append(message: M): void {
    if (message.role === 'system') {
      this.system.push(message);
      return;
    }
    let open = this.interactions.at(-1);
    if (message.role === 'user' || open === undefined) {
      open = new OpenInteraction<M>(this.firstIndex + this.interactions.length);
      this.interactions.push(open);
    }
    open.push(message);
  }

  appendAll(messages: Iterable<M>): void {
    for (const message of messages) this.append(message);
  }

  get messageCount(): number {
    let n = this.system.length;
    for (const interaction of this.interactions) n += interaction.messages.length;
    return n;
  }
}

/** Groups a whole conversation at once. */
export function groupInteractions<M extends CountedMessage>(
  messages: Iterable<M>,
): InteractionLog<M> {
  return new InteractionLog<M>(messages);
}
