import type { CountedMessage } from './message.ts';

/**
 * One human turn: the user message plus every assistant and tool message after it, until the
 * next user message. Strategies keep or drop whole interactions, so a tool call is never
 * separated from its result.
 *
 * A conversation that starts with assistant messages (a greeting, an agent-initiated outreach)
 * has an opening interaction before its first human turn: those messages, up to the first user
 * message. It is part of the context like any other interaction; only a conversation's first
 * interaction can be an opening one (`isOpening`).
 */
export interface Interaction {
  /** Position in the conversation, 0 for the first interaction (the opening one, if any). */
  readonly index: number;
  /**
   * The user message first, then the assistant and tool messages of the turn; an opening
   * interaction has no user message.
   */
  readonly messages: readonly CountedMessage[];
  /** Sum of the messages' token counts. */
  readonly tokenCount: number;
  /** Names of the tools called in this turn, in call order, without repeats. */
  readonly toolNames: readonly string[];
  /** True when any tool result of this turn has `isError`. */
  readonly hasError: boolean;
}
