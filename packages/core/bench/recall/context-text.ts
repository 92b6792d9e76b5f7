import type { Message } from '../../src/model/message.ts';
import { messageText } from '../../src/model/message.ts';

/** Whitespace runs become one space: a turn quoted in an indented transcript still matches. */
export function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The texts of a context's messages, joined and normalised, to look answer turns up in. */
export function contextText(messages: readonly Message[]): string {
  return normalise(messages.map(messageText).join('\n'));
}

/** Turn id -> its normalised text, for every message of a conversation. */
export function turnTexts(messages: readonly Message[]): Map<string, string> {
  return new Map(messages.map((m) => [m.id, normalise(messageText(m))]));
}
