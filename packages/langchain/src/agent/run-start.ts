import type { BaseMessage } from '@langchain/core/messages';
import { type MemorySession, MemValidationError, type Message } from '@mem/core';
import { fromLangChainMessage } from '../convert/from-langchain.ts';
import { langChainExtras } from '../convert/langchain-extras.ts';

type Fields = Omit<Message, 'id' | 'createdAt'>;

/** What a run starts with, sorted against the stored conversation. */
export interface RunStart {
  /** LangChain ids of the run's messages the session holds already (never stored again). */
  known: Set<string>;
  /** The system messages the run starts with that the session does not hold yet. */
  newSystem: Fields[];
}

/**
 * Sorts the messages an agent run starts with (`state.messages`) into stored and new, by this
 * rule: system messages are new unless the session holds one with the same content; of the
 * others, the longest first stretch that repeats the newest stored messages (same LangChain id,
 * or same role, content, tool calls and tool-call id) is stored already, and what follows is
 * new. So a run may pass only its new messages, the whole thread again (a checkpointer, a client
 * that re-sends history) or its newest part (a client-side window).
 *
 * A list that re-sends stored messages but departs from them (an edited or regenerated message,
 * a dropped one) is refused: mem keeps one conversation per thread and never rewrites it.
 *
 * @throws MemValidationError naming `messages[i]` (and the field) for a message mem cannot
 *   store, or the first message where a re-sent list departs from the stored conversation.
 */
export async function sortRunStart(
  session: MemorySession,
  messages: readonly BaseMessage[],
): Promise<RunStart> {
  const fields = messages.map((m, i) => fromLangChainMessage(m, i));
  const known = new Set<string>();
  const newSystem: Fields[] = [];
  const turns: Turn[] = [];
  fields.forEach((f, index) => {
    if (f.role !== 'system') turns.push({ index, ...keyOf(f) });
  });
  if (turns.length < fields.length) {
    const stored = new Set(
      (await session.messages()).filter((m) => m.role === 'system').map(fingerprint),
    );
    fields.forEach((f, i) => {
      if (f.role !== 'system') return;
      if (stored.has(fingerprint(f))) idOf(messages[i], known);
      else newSystem.push(f);
    });
  }
  if (turns.length === 0) return { known, newSystem };

  let stored = (await storedTail(session, turns.length)).map(keyOf);
  let k = repeatedPrefix(turns, stored);
  if (k === 0 && turns.length > 1 && stored.length > 0) {
    // Several messages that do not continue the newest stored ones: a thread re-sent from
    // further back (a summary replaced its start, or it edits or drops a stored message).
    stored = (await session.history()).filter((m) => m.role !== 'system').map(keyOf);
    k = repeatedPrefix(turns, stored);
  }
  for (let i = 0; i < k; i++) idOf(messages[turns[i]!.index], known);
  const departs = departure(turns, k, stored);
  if (departs !== undefined) {
    const field = `messages[${departs}]`;
    throw new MemValidationError(
      field,
      `[mem/langchain] ${field} departs from the stored conversation the messages before it re-send (an edited, regenerated or dropped message): mem keeps one conversation per thread and never rewrites it. Pass only the new messages, or the stored ones unchanged followed by new ones; to branch, use another thread_id (or memMiddleware({ sessionId })).`,
    );
  }
  return { known, newSystem };
}

/** How a message is recognised again: its LangChain id, and what it says. */
interface Key {
  id: string | undefined;
  print: string;
}
/** A non-system message of the run, with its index in `state.messages`. */
type Turn = Key & { index: number };

const keyOf = (m: Fields): Key => ({ id: langChainExtras(m.metadata)?.id, print: fingerprint(m) });

function idOf(message: BaseMessage | undefined, into: Set<string>): void {
  if (typeof message?.id === 'string' && message.id !== '') into.add(message.id);
}

/** Identity across a re-send: LangChain id aside (a re-sent copy may get a fresh one). */
function fingerprint(m: Fields): string {
  return JSON.stringify([
    m.role,
    m.content,
    (m.toolCalls ?? []).map((c) => [c.id, c.name, canonicalJson(c.arguments)]),
    m.toolCallId ?? null,
    m.isError === true,
  ]);
}

function canonicalJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

function same(a: Key, b: Key): boolean {
  return (a.id !== undefined && a.id === b.id) || a.print === b.print;
}

/** The longest k such that the first k turns equal the last k stored messages. */
function repeatedPrefix(turns: readonly Key[], stored: readonly Key[]): number {
  for (let k = Math.min(turns.length, stored.length); k > 0; k--) {
    let equal = true;
    for (let i = 0; i < k && equal; i++) equal = same(turns[i]!, stored[stored.length - k + i]!);
    if (equal) return k;
  }
  return 0;
}

/**
 * The state index of the first turn where a re-sent list departs from the stored conversation,
 * or undefined when the list only continues it. A list re-sends stored history when one of its
 * new turns carries a stored LangChain id, or when its first two turns repeat two stored
 * messages in a row (one repeated message alone may be a new "yes" or "thanks").
 */
function departure(turns: readonly Turn[], k: number, stored: readonly Key[]): number | undefined {
  const ids = new Set(stored.map((m) => m.id));
  ids.delete(undefined);
  for (let i = k; i < turns.length; i++) {
    const id = turns[i]!.id;
    if (id !== undefined && ids.has(id)) return firstDifference(turns, i, stored);
  }
  if (k > 0 || turns.length < 2) return undefined;
  for (let j = 0; j + 1 < stored.length; j++) {
    if (same(turns[0]!, stored[j]!) && same(turns[1]!, stored[j + 1]!)) {
      return firstDifference(turns, 0, stored);
    }
  }
  return undefined;
}

/** Walks from a re-sent turn along the stored messages it repeats, to the first that differs. */
function firstDifference(turns: readonly Turn[], from: number, stored: readonly Key[]): number {
  const anchor = stored.findIndex((m) => same(turns[from]!, m));
  let i = from;
  let j = anchor;
  while (i < turns.length && j >= 0 && j < stored.length && same(turns[i]!, stored[j]!)) {
    i++;
    j++;
  }
  return turns[Math.min(i, turns.length - 1)]!.index;
}

/**
 * The newest `count` active messages other than system ones (fewer when the session holds
 * fewer). A tail read, not the whole session.
 */
async function storedTail(session: MemorySession, count: number): Promise<Message[]> {
  for (let last = count; ; last *= 2) {
    const read = await session.messages({ last });
    const messages = read.filter((m) => m.role !== 'system');
    if (read.length < last || messages.length >= count) return messages;
  }
}
