import { type CountedMessage, messageText } from '@mem/core';
import type { HistoryItem } from './replay-types.ts';

/** What the page shows of one message; kept once per message for the whole replay. */
export interface TableEntry {
  id: string;
  role: HistoryItem['role'];
  text: string;
  tokens: number;
  toolName?: string;
  isError?: boolean;
}

/** The text shown for a message: its text, then one `→ name(arguments)` line per tool call. */
export function displayText(message: CountedMessage): string {
  const calls = (message.toolCalls ?? []).map((c) => `→ ${c.name}(${c.arguments})`);
  const text = messageText(message);
  return [...(text.length > 0 ? [text] : []), ...calls].join('\n');
}

/** Every message the replay has seen (originals and summaries), numbered in order of arrival. */
export class MessageTable {
  readonly entries: TableEntry[] = [];
  private readonly index = new Map<string, number>();

  /** Adds the message once; returns its number. */
  add(message: CountedMessage): number {
    const known = this.index.get(message.id);
    if (known !== undefined) return known;
    const entry: TableEntry = {
      id: message.id,
      role: message.role,
      text: displayText(message),
      tokens: message.tokenCount,
    };
    if (message.toolName !== undefined) entry.toolName = message.toolName;
    if (message.isError !== undefined) entry.isError = message.isError;
    this.entries.push(entry);
    this.index.set(message.id, this.entries.length - 1);
    return this.entries.length - 1;
  }

  numberOf(id: string): number | undefined {
    return this.index.get(id);
  }

  get(id: string): TableEntry | undefined {
    const n = this.index.get(id);
    return n === undefined ? undefined : this.entries[n];
  }
}
