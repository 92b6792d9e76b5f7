import type { Interaction } from './interaction.ts';
import type { CountedMessage } from './message.ts';

/** The conversation as strategies see it: system messages apart, the rest grouped by turn. */
export interface ConversationView {
  /** System messages (summaries included), in order. Always kept. */
  readonly system: readonly CountedMessage[];
  /** Human turns, oldest first. */
  readonly interactions: readonly Interaction[];
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
 * Non-system messages before the first user message (an assistant greeting, say) belong to no
 * interaction; they are kept in `preamble` and never put in a prompt, which must start with a
 * user message.
 */
export class InteractionLog<M extends CountedMessage = CountedMessage> implements ConversationView {
  readonly system: M[] = [];
  readonly preamble: M[] = [];
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
    if (message.role === 'user') {
      this.interactions.push(new OpenInteraction<M>(this.firstIndex + this.interactions.length));
    }
    const open = this.interactions.at(-1);
    if (open === undefined) this.preamble.push(message);
    else open.push(message);
  }

  appendAll(messages: Iterable<M>): void {
    for (const message of messages) this.append(message);
  }

  get messageCount(): number {
    let n = this.system.length + this.preamble.length;
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
