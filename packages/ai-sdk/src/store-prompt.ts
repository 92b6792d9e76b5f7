import { isSummaryMessage, type MemorySession, type Message, type StoredMessage } from '@mem/core';
import { alignHistory, type HistoryAlignment, MIN_EVIDENCE } from './history-alignment.ts';
import { changedHistoryRefused, concurrentWrite, interleavedStep } from './history-errors.ts';
import { fingerprint } from './message-fingerprint.ts';

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
}

function plan(prompt: readonly Message[], stored: StoredMessage[], whole: boolean): Plan {
  const alignment = alignHistory(prompt.map(fingerprint), stored.map(fingerprint), { whole });
  return { alignment, stored };
}

/**
 * Lines the prompt up with the newest stored messages; when nothing lines up there and a summary
 * has replaced older turns, with the original messages the summaries replaced (a step or a caller
 * may re-send turns a compaction has just summarized). Reading the archive is left to that case.
 */
async function planFor(session: MemorySession, prompt: readonly Message[]): Promise<Plan> {
  const tail = await activeTail(session, tailSize(prompt.length));
  const first = plan(prompt, tail.messages, tail.whole && !tail.summarized);
  if (first.alignment.rule !== 'new' || prompt.length < MIN_EVIDENCE) return first;
  const summarized = tail.whole ? tail.summarized : (await session.summaries()).length > 0;
  if (!summarized) return first;
  const again = plan(prompt, outsideSystem(await session.history()), true);
  return again.alignment.rule === 'new' ? first : again;
}

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
  prompt: readonly Message[],
  changedHistory: ChangedHistory,
): Promise<void> {
  if (prompt.length === 0) return;
  const { alignment, stored } = await planFor(session, prompt);
  const fresh = prompt.slice(alignment.keep);
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
  if (fresh.length > 0) await session.append(fresh.map(withoutIdentity));
}
