import { MemValidationError } from '../../errors/errors.ts';
import { type Message, messageText } from '../message.ts';
import { toModelMessages } from './ai-sdk.ts';
import type { ModelMessageLike } from './ai-sdk-types.ts';
import { memInputFail } from './conversion-error.ts';
import { checkMemMessage, guarded, memMessages } from './guard-input.ts';

const toFail = memInputFail('ai-sdk');

/**
 * A mem context as AI SDK call options: the system content apart, the conversation as messages.
 * `S` names the option the system content goes to: `system` (v6; v7 still reads it) or
 * `instructions` (v7's name).
 */
export type ModelPrompt<S extends 'system' | 'instructions' = 'system'> = {
  /**
   * The text of every system message (system prompts, the summary, retrieved knowledge), in
   * order, joined by a blank line; absent when there is none.
   */
  [K in S]?: string;
} & {
  /** The other messages, as `toModelMessages` writes them: no system message among them. */
  messages: ModelMessageLike[];
};

export interface ModelPromptOptions<S extends 'system' | 'instructions'> {
  /** The option the system content goes to. Default `'system'`; `'instructions'` for v7. */
  systemAs: S;
}

/**
 * Converts mem messages to AI SDK call options with the system content separated:
 * `generateText({ model, ...toModelPrompt(context.messages) })`. AI SDK v7 refuses system
 * messages inside `messages` unless `allowSystemInMessages` is set, and v6 warns about them on
 * every call; this puts them where both expect them. Text parts of system messages are kept;
 * their `providerOptions` are not (the option is a string).
 */
export function toModelPrompt(messages: readonly Message[]): ModelPrompt;
export function toModelPrompt<S extends 'system' | 'instructions'>(
  messages: readonly Message[],
  options: ModelPromptOptions<S>,
): ModelPrompt<S>;
export function toModelPrompt(
  messages: readonly Message[],
  options?: ModelPromptOptions<'system' | 'instructions'>,
): ModelPrompt<'system' | 'instructions'> {
  const key = options?.systemAs ?? 'system';
  if (key !== 'system' && key !== 'instructions') {
    throw new MemValidationError(
      'systemAs',
      `[mem/core] toModelPrompt: systemAs is ${JSON.stringify(key)}; use "system" (AI SDK v6) or "instructions" (v7)`,
    );
  }
  const system: string[] = [];
  const rest: Message[] = [];
  memMessages(messages, toFail).forEach((m, i) => {
    const path = `messages[${i}]`;
    guarded(toFail, path, () => {
      checkMemMessage(m, path, toFail);
      if (m.role !== 'system') rest.push(m);
      else {
        const text = messageText(m);
        if (text.length > 0) system.push(text);
      }
    });
  });
  const prompt: ModelPrompt<'system' | 'instructions'> = { messages: toModelMessages(rest) };
  if (system.length > 0) prompt[key] = system.join('\n\n');
  return prompt;
}
