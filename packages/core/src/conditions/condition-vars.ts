import type { Interaction } from '../model/interaction.ts';
import { type CountedMessage, messageText, type Role } from '../model/message.ts';
import {
  type ConditionValue,
  conditionValueSize,
  toConditionInt,
  toConditionMap,
} from './condition-value.ts';

/**
 * What a condition sees as `message`. Build it with `messageVars`. Optional message fields have
 * defaults ('' / false / empty map), so `message.toolName == 'search'` works on any message.
 * Counts are CEL `int`s (BigInt), so `message.tokenCount > 100` compares with an int literal.
 */
export class MessageConditionVars {
  readonly role: Role;
  readonly name: string;
  readonly toolName: string;
  readonly isError: boolean;
  readonly tokenCount: bigint;
  readonly #source: CountedMessage;
  #content: string | undefined;
  #metadata: ReadonlyMap<string, ConditionValue> | undefined;
  #metadataSize: number | undefined;

  constructor(message: CountedMessage) {
    this.role = message.role;
    this.name = message.name ?? '';
    this.toolName = message.toolName ?? '';
    this.isError = message.isError ?? false;
    this.tokenCount = toConditionInt(message.tokenCount);
    this.#source = message;
  }

  /** The message's plain text (text parts joined by newlines), computed on first read. */
  get content(): string {
    this.#content ??= messageText(this.#source);
    return this.#content;
  }

  /**
   * The metadata converted to condition values on first read. Throws MetadataLimitError when it
   * is too large or deep; a condition evaluation turns that into a MemConditionError.
   */
  get metadata(): ReadonlyMap<string, ConditionValue> {
    this.#metadata ??= toConditionMap(this.#source.metadata);
    return this.#metadata;
  }

  /** Characters and values in the metadata, all levels together (see conditionValueSize). */
  metadataSize(): number {
    this.#metadataSize ??= conditionValueSize(this.metadata);
    return this.#metadataSize;
  }
}

/** What a condition sees as `interaction`. Build it with `interactionVars`. */
export class InteractionConditionVars {
  readonly index: bigint;
  readonly messageCount: bigint;
  readonly tokenCount: bigint;
  readonly toolNames: readonly string[];
  readonly hasError: boolean;
  /**
   * True for the newest interaction of the conversation: the turn the next LLM call answers,
   * whose tool calls and results the model must see. False for every earlier one.
   */
  readonly isCurrent: boolean;

  constructor(interaction: Interaction, isCurrent = false) {
    this.index = toConditionInt(interaction.index);
    this.messageCount = toConditionInt(interaction.messages.length);
    this.tokenCount = toConditionInt(interaction.tokenCount);
    this.toolNames = interaction.toolNames;
    this.hasError = interaction.hasError;
    this.isCurrent = isCurrent;
  }
}

/** The variables one evaluation can read. A condition that reads one that is absent fails. */
export interface ConditionVars {
  readonly message?: MessageConditionVars;
  readonly interaction?: InteractionConditionVars;
}

/**
 * N of a condition's cost estimate: the size of the largest value it can read from `vars`
 * (message content, name, tool name, the metadata when it reads metadata, the tool names).
 */
export function conditionInputSize(vars: ConditionVars, readsMetadata: boolean): number {
  let size = 0;
  const { message, interaction } = vars;
  if (message !== undefined) {
    size = Math.max(message.content.length, message.name.length, message.toolName.length);
    if (readsMetadata) size = Math.max(size, message.metadataSize());
  }
  if (interaction !== undefined) {
    let names = interaction.toolNames.length;
    for (const name of interaction.toolNames) names += name.length;
    size = Math.max(size, names);
  }
  return size;
}

/** The `message` variable for `message`. Build once per message and reuse for every condition. */
export function messageVars(message: CountedMessage): MessageConditionVars {
  return new MessageConditionVars(message);
}

/** The `interaction` variable for `interaction`; `isCurrent` when it is the newest one. */
export function interactionVars(
  interaction: Interaction,
  isCurrent = false,
): InteractionConditionVars {
  return new InteractionConditionVars(interaction, isCurrent);
}
