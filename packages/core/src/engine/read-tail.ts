import type { ReadResult, Store, StoredMessage } from '../store/store-spec.ts';

const PAGE = 256;
const HEAD = 64;

/**
 * Reads only what a token window can use: pages from the end until the complete interactions
 * read hold more than `tokens` tokens, plus the system messages of the first `HEAD` messages
 * (system prompts and summaries sit at the front). Costs O(window), not O(history). Falls back
 * to a whole read when the session is rewritten (epoch change) between pages.
 */
export async function readTail(
  store: Store,
  sessionId: string,
  tokens: number,
): Promise<ReadResult> {
  const last = await store.read(sessionId, { from: 'end', limit: PAGE });
  let messages = last.messages;
  let reachedStart = messages.length < PAGE;
  while (!reachedStart && completeTokens(messages) <= tokens) {
    const page = await store.read(sessionId, {
      beforeSeq: messages[0]!.seq,
      from: 'end',
      limit: PAGE,
    });
    if (page.epoch !== last.epoch) return store.read(sessionId);
    messages = page.messages.concat(messages);
    reachedStart = page.messages.length < PAGE;
  }
  if (!reachedStart && messages.length > 0) {
    const head = await store.read(sessionId, { limit: HEAD });
    if (head.epoch !== last.epoch) return store.read(sessionId);
    const first = messages[0]!.seq;
    const system = head.messages.filter((m) => m.role === 'system' && m.seq < first);
    messages = system.concat(messages);
  }
  return { version: last.version, epoch: last.epoch, messages };
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
