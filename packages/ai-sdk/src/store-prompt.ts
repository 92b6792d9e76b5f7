import { isSummaryMessage, type MemorySession, type Message, type StoredMessage } from '@mem/core';
import { alignHistory, type HistoryAlignment, MIN_EVIDENCE } from './history-alignment.ts';
import { type KeptHistory, keptResentPrefix, type SessionHistory } from './history-cache.ts';
import { changedHistoryRefused, concurrentWrite, interleavedStep } from './history-errors.ts';
import { fingerprint } from './message-fingerprint.ts';
import { historyOfMessages, type PromptHistory } from './prompt-history.ts';

/** What a prompt that changes stored messages does: replace them, or fail the call. */
export type ChangedHistory = 'replace' | 'error';

const outsideSystem = <M extends Message>(messages: readonly M[]) =>
  messages.filter((m) => m.role !== 'system');

export function withoutIdentity(m: Message): Omit<Message, 'id' | 'createdAt'> {
  const { id: _id, createdAt: _createdAt, ...rest } = m;
  return rest;
}

interface Tail {
  messages: StoredMessage[];
  /** The read reached the start of the active conversation. */
  whole: boolean;
  summarized: boolean;
}

/**
 * The newest `count` active messages other than system ones (fewer when the session holds
 * fewer): a tail read, read further back when system messages are in between.
 */
async function activeTail(session: MemorySession, count: number): Promise<Tail> {
  for (let last = count; ; last *= 2) {
    const read = await session.messages({ last });
    const messages = outsideSystem(read);
    const whole = read.length < last;
    if (whole || messages.length >= count) {
      return { messages, whole, summarized: read.some(isSummaryMessage) };
    }
  }
}

/**
 * How far back a prompt is compared: as many messages as it holds, and for 2+ messages some more,
 * so a prompt that leaves stored tool calls and results out still reaches its anchor.
 */
const tailSize = (n: number) => (n < MIN_EVIDENCE ? n : 2 * n + 64);

interface Plan {
  alignment: HistoryAlignment;
  stored: StoredMessage[];
  fingerprints: string[];
  /** The active tail `stored` is (undefined: `stored` came from the archive too). */
  tail?: Tail;
}

function plan(prompt: readonly string[], stored: StoredMessage[], whole: boolean): Plan {
  const fingerprints = stored.map(fingerprint);
  const alignment = alignHistory(prompt, fingerprints, { whole });
  return { alignment, stored, fingerprints };
}

/**
 * Lines the prompt up with the newest stored messages; when nothing lines up there and a summary
 * has replaced older turns, with the original messages the summaries replaced (a step or a caller
 * may re-send turns a compaction has just summarized). Reading the archive is left to that case.
 *
 * A re-sent history (rule a) lines up with at most as many stored messages as the prompt holds:
 * those are read first, and the longer tail (rules b and c) only when they do not line up so.
 * Rule a's answer is the same on both tails (it compares the prompt with the newest stored
 * messages only), so a chat app that re-sends its history reads its length, not twice it.
 */
async function planFor(session: MemorySession, prompt: PromptHistory): Promise<Plan> {
  const h = prompt.fingerprints;
  const size = tailSize(prompt.length);
  let tail = await activeTail(session, prompt.length);
  let first = { ...plan(h, tail.messages, tail.whole && !tail.summarized), tail };
  // A read that reached the start holds everything the longer one would.
  if (first.alignment.rule !== 'resent' && size > prompt.length && !tail.whole) {
    tail = await activeTail(session, size);
    first = { ...plan(h, tail.messages, tail.whole && !tail.summarized), tail };
  }
  if (first.alignment.rule !== 'new' || prompt.length < MIN_EVIDENCE) return first;
  const summarized = tail.whole ? tail.summarized : (await session.summaries()).length > 0;
  if (!summarized) return first;
  const again = plan(h, outsideSystem(await session.history()), true);
  return again.alignment.rule === 'new' ? first : again;
}

const isHistory = (m: readonly Message[] | PromptHistory): m is PromptHistory => !Array.isArray(m);

/** A tool result is stored right after the assistant message that called it (or its siblings). */
function continuesCall(previous: Message | undefined, next: Message): boolean {
  if (next.role !== 'tool') return true;
  if (previous === undefined || previous.role === 'tool') return true;
  return (previous.toolCalls ?? []).some((c) => c.id === next.toolCallId);
}

async function popChangedTail(session: MemorySession, expected: StoredMessage[]): Promise<void> {
  const newest = await session.messages({ last: expected.length });
  const ids = (ms: readonly Message[]) => ms.map((m) => m.id).join('\u0000');
  if (ids(newest) !== ids(expected)) {
    const cause = newest.some(isSummaryMessage)
      ? 'it changes messages a summary has replaced'
      : newest.some((m) => m.role === 'system')
        ? 'a system message is stored after the messages it changes'
        : 'it changes messages that are no longer the newest active ones';
    throw changedHistoryRefused(`the prompt re-sends the history with changes, but ${cause}.`);
  }
  for (let i = expected.length - 1; i >= 0; i--) {
    const want = expected[i] as StoredMessage;
    const popped = await session.pop();
    if (popped?.id === want.id) continue;
    // Another writer appended meanwhile: put its message back where it was and stop.
    if (popped !== null) {
      const { seq: _seq, tokenCount: _tokens, ...message } = popped;
      await session.append(message);
    }
    throw concurrentWrite(session.id, `expected to remove message ${JSON.stringify(want.id)}`);
  }
}

/**
 * Stores the prompt's messages (system messages aside) that the session does not hold yet,
 * following the rules of history-alignment.ts; a changed history replaces the stored messages
 * from the first difference on (`changedHistory: 'replace'`) or fails the call (`'error'`).
 */
export async function storePrompt(
  session: MemorySession,
  messages: readonly Message[] | PromptHistory,
  changedHistory: ChangedHistory,
  history?: SessionHistory,
): Promise<void> {
  const prompt = isHistory(messages) ? messages : historyOfMessages(messages);
  if (prompt.length === 0) return;
  const kept = history?.kept;
  const quick = kept === undefined ? undefined : keptAlignment(prompt, kept);
  if (quick !== undefined) {
    const fresh = prompt.from(quick.keep);
    if (fresh.length === 0) return;
    if (!continuesCall(kept?.last, fresh[0] as Message)) throw interleavedStep(session.id);
    history?.appended(await session.append(fresh.map(withoutIdentity)));
    return;
  }
  const { alignment, stored, fingerprints, tail } = await planFor(session, prompt);
  if (tail === undefined || alignment.rule === 'changed') history?.forget();
  else {
    history?.remember({ messages: stored, fingerprints, whole: tail.whole }, prompt.length);
  }
  const fresh = prompt.from(alignment.keep);
  if (alignment.rule === 'changed') {
    const removed = stored.slice(alignment.replaceFrom);
    if (fresh[0]?.role === 'tool') throw interleavedStep(session.id);
    if (changedHistory === 'error') {
      throw changedHistoryRefused(
        `the prompt re-sends the history with a change at its message ${alignment.keep} ` +
          "(changedHistory: 'error' refuses any change).",
      );
    }
    if (removed.length > prompt.length) {
      throw changedHistoryRefused(
        `the prompt re-sends the history with a change that would remove ${removed.length} ` +
          `stored messages, more than the prompt's ${prompt.length}.`,
      );
    }
    await popChangedTail(session, removed);
  } else if (fresh.length > 0 && !continuesCall(stored.at(-1), fresh[0] as Message)) {
    throw interleavedStep(session.id);
  }
  if (fresh.length > 0) {
    const appended = await session.append(fresh.map(withoutIdentity));
    if (alignment.rule !== 'changed') history?.appended(appended);
  }
}

/**
 * How the prompt lines up with what the middleware kept of the stored conversation, when that is
 * enough to know (rule a, or rule d for a single message: `planFor` answers the same from the
 * store); undefined when the store must be read.
 */
function keptAlignment(prompt: PromptHistory, kept: KeptHistory): HistoryAlignment | undefined {
  if (!kept.whole && kept.roles.length < prompt.length) return undefined;
  const resent = keptResentPrefix(prompt, kept);
  if (resent > 0) return { rule: 'resent', keep: resent };
  return prompt.length < MIN_EVIDENCE ? { rule: 'new', keep: 0 } : undefined;
}
