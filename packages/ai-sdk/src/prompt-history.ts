import type { Message } from '@mem/core';
import { fingerprint, textFingerprint } from './message-fingerprint.ts';
import type { PromptMessageLike } from './middleware-types.ts';
import { fromPrompt } from './prompt-messages.ts';

/**
 * A call's prompt without its system messages, as `storePrompt` compares and stores it: each
 * message's fingerprint (`message-fingerprint.ts`), and the messages themselves, converted to mem
 * messages from a position on (the new ones, once the comparison has found them).
 */
export interface PromptHistory {
  readonly length: number;
  readonly fingerprints: readonly string[];
  /**
   * A prompt of plain text messages only: each message's role and text (its fingerprint is
   * `textFingerprint(role, text)`), compared as they are where that is enough.
   */
  readonly plain?: PlainMessages;
  /** The messages from `start` on. */
  from(start: number): Message[];
}

export interface PlainMessages {
  readonly roles: readonly string[];
  readonly texts: readonly string[];
}

/** The history of messages already converted. */
export function historyOfMessages(messages: readonly Message[]): PromptHistory {
  return {
    length: messages.length,
    fingerprints: messages.map(fingerprint),
    from: (start) => messages.slice(start),
  };
}

/**
 * A chat app re-sends its whole history with every call. Converting it to mem messages costs
 * ~7 µs a message (core's converter checks that nothing would be lost), while what the comparison
 * needs of a plain text message is its role and text. So a prompt of plain messages only (system
 * messages of text, user and assistant messages of text parts, no provider options) is
 * fingerprinted straight from the provider prompt, and only the new messages are converted; any
 * other prompt is converted whole first, as before (and a malformed one fails there, before any
 * lock is taken).
 */
export function promptHistory(prompt: readonly PromptMessageLike[]): PromptHistory {
  const plain = plainMessages(prompt);
  if (plain === undefined) {
    return historyOfMessages(fromPrompt(prompt).filter((m) => m.role !== 'system'));
  }
  const history = prompt.filter((m) => m.role !== 'system');
  let fingerprints: string[] | undefined;
  return {
    length: history.length,
    plain,
    // Built when asked for: a re-sent history the middleware kept is compared by role and text.
    get fingerprints() {
      fingerprints ??= plain.roles.map((role, i) =>
        textFingerprint(role, plain.texts[i] as string),
      );
      return fingerprints;
    },
    from: (start) => fromPrompt(history.slice(start)),
  };
}

/**
 * No field but `a` and `b`, except ones set to undefined (the AI SDK spells out absent options).
 * Inherited fields count too: a plain object has none, and anything else is converted instead.
 */
function onlyFields(value: object, a: string, b: string): boolean {
  for (const key in value) {
    if (key !== a && key !== b && (value as Record<string, unknown>)[key] !== undefined) {
      return false;
    }
  }
  return true;
}

/** The text of plain text parts, joined as `messageText` joins them; undefined for anything else. */
function plainText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  let out = '';
  for (const part of content as unknown[]) {
    if (typeof part !== 'object' || part === null || Array.isArray(part)) return undefined;
    const { type, text } = part as { type?: unknown; text?: unknown };
    if (type !== 'text' || typeof text !== 'string' || !onlyFields(part, 'type', 'text')) {
      return undefined;
    }
    out = out.length === 0 ? text : `${out}\n${text}`;
  }
  return out;
}

/**
 * The roles and texts of the non-system messages, when every message of the prompt is plain (a
 * message `fingerprint` sees as text only: no parts but text, no tool calls, no tool result);
 * undefined otherwise.
 */
function plainMessages(prompt: readonly PromptMessageLike[]): PlainMessages | undefined {
  if (!Array.isArray(prompt)) return undefined;
  const roles: string[] = [];
  const texts: string[] = [];
  for (const m of prompt as unknown[]) {
    if (typeof m !== 'object' || m === null || !onlyFields(m, 'role', 'content')) return undefined;
    const { role, content } = m as PromptMessageLike;
    if (role === 'system') {
      if (typeof content !== 'string') return undefined;
      continue;
    }
    if (role !== 'user' && role !== 'assistant') return undefined;
    const text = plainText(content);
    if (text === undefined) return undefined;
    roles.push(role);
    texts.push(text);
  }
  return { roles, texts };
}
