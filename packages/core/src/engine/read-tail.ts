import type { ReadResult, Store, StoredMessage } from '../store/store-spec.ts';

/** System messages are looked for among this many messages before the tail. */
const HEAD = 64;
/** A low guess of tokens per message, to size the first page before any message is read. */
const GUESS_TOKENS_PER_MESSAGE = 48;
/** Pages read at least this many messages (one interaction and some). */
const MIN_PAGE = 16;
/** And at most this many (a huge window reads its tail in several pages). */
const MAX_PAGE = 4096;

/**
 * Reads only what a token window can use: pages from the end until the complete interactions
 * read hold more than `tokens` tokens, plus the system messages among the `HEAD` messages before
 * them (system prompts and summaries sit at the front). Costs O(window), not O(history). A tail
 * that reaches the conversation's start keeps its opening interaction (assistant messages before
 * the first user message); one that starts inside an interaction drops that fragment.
 *
 * The first page is sized from the budget (`tokens` / a low guess of tokens per message, plus
 * slack); each next one from the tokens per message seen so far, at least twice the last page
 * (so a badly guessed window takes few reads). Falls back to a whole read when the session is
 * rewritten (epoch change) between pages.
 */
export async function readTail(
  store: Store,
  sessionId: string,
  tokens: number,
): Promise<ReadResult> {
  let page = clampPage(Math.ceil(tokens / GUESS_TOKENS_PER_MESSAGE) + MIN_PAGE);
  const last = await store.read(sessionId, { from: 'end', limit: page });
  let messages = last.messages;
  let reachedStart = messages.length < page;
  let have = completeTokens(messages);
  while (!reachedStart && have <= tokens) {
    page = clampPage(Math.max(2 * page, pageFor(messages, tokens - have)));
    const read = await store.read(sessionId, {
      beforeSeq: messages[0]!.seq,
      from: 'end',
      limit: page,
    });
    if (read.epoch !== last.epoch) return store.read(sessionId);
    messages = read.messages.concat(messages);
    reachedStart = read.messages.length < page;
    have = completeTokens(messages);
  }
  if (!reachedStart && messages.length > 0) {
    // Only what precedes the tail: no message is read twice.
    const head = await store.read(sessionId, { beforeSeq: messages[0]!.seq, limit: HEAD });
    if (head.epoch !== last.epoch) return store.read(sessionId);
    const system = head.messages.filter((m) => m.role === 'system');
    // Unless nothing but system prompts precedes it, the tail starts inside an interaction whose
    // user message was not read: that fragment is no interaction a window could show (taken for
    // the conversation's opening, it would be shown without its question).
    const atStart = head.messages.length === system.length && head.messages.length < HEAD;
    messages = system.concat(atStart ? messages : withoutFragment(messages));
  }
  return { version: last.version, epoch: last.epoch, messages };
}

/** `messages` from the first user message on, system messages kept. */
function withoutFragment(messages: readonly StoredMessage[]): StoredMessage[] {
  const first = messages.findIndex((m) => m.role === 'user');
  if (first < 0) return messages.filter((m) => m.role === 'system');
  return messages.filter((m, i) => i >= first || m.role === 'system');
}

/** Messages likely to hold `missing` more tokens, from the mean size of those read (+ 25 %). */
function pageFor(read: readonly StoredMessage[], missing: number): number {
  let total = 0;
  for (const m of read) total += m.tokenCount;
  const perMessage = Math.max(1, total / Math.max(1, read.length));
  return Math.ceil((missing / perMessage) * 1.25) + MIN_PAGE;
}

function clampPage(size: number): number {
  return Math.min(MAX_PAGE, Math.max(MIN_PAGE, size));
}

/** Tokens of the messages from the first user message on (the complete interactions). */
function completeTokens(messages: readonly StoredMessage[]): number {
  let total = 0;
  let started = false;
  for (const m of messages) {
    if (m.role === 'user') started = true;
    if (started && m.role !== 'system') total += m.tokenCount;
  }
  return total;
}
