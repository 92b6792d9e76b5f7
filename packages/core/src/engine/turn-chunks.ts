import type { KnowledgeChunk } from '../knowledge/knowledge-base-spec.ts';
import { splitTextSpans } from '../knowledge/text-splitter.ts';
import { type CountedMessage, isSummaryMessage, messageText } from '../model/message.ts';
import type { TokenCounter } from '../tokens/token-counter.ts';

const ROLE_LABELS = { user: 'User', assistant: 'Assistant', system: 'System', tool: 'Tool' };

/**
 * One interaction as knowledge: a line per message, labelled with the speaker's `name` when it
 * has one, else its role (`Lena: …`, `User: …`); tool calls as `→ name(args)`, results as
 * `← name: result`. Short labels keep the retrieved text close to what was said.
 */
export function turnText(messages: readonly CountedMessage[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (isSummaryMessage(m)) continue;
    const text = messageText(m);
    if (m.role === 'tool') {
      const marker = m.isError === true ? ' [error]' : '';
      lines.push(`← ${m.toolName ?? 'tool'}${marker}: ${text}`);
      continue;
    }
    const label = m.name ?? ROLE_LABELS[m.role];
    if (text.length > 0 || m.toolCalls === undefined) lines.push(`${label}: ${text}`);
    for (const call of m.toolCalls ?? []) lines.push(`→ ${call.name}(${call.arguments})`);
  }
  return lines.join('\n');
}

export interface ChunkSplit {
  chunkSize: number;
  chunkOverlap: number;
  counter: TokenCounter;
}

/**
 * An interaction's chunks: its `turnText` cut by the profile's `text_splitter`, ids
 * `${firstMessageId}:${i}`, so indexing the same interaction again replaces them. The first
 * chunk is also found by the message before the interaction (`context`: often the question
 * the turn answers, or what it reacts to), without showing it. With `userId` the chunks carry
 * the session's user, so the user's other sessions find them.
 */
export function turnChunks(
  sessionId: string,
  messages: readonly CountedMessage[],
  split: ChunkSplit,
  before?: CountedMessage,
  userId?: string,
): KnowledgeChunk[] {
  const originals = messages.filter((m) => !isSummaryMessage(m));
  const first = originals[0];
  const last = originals.at(-1);
  if (first === undefined || last === undefined) return [];
  const metadata = {
    sessionId,
    ...(userId === undefined ? {} : { userId }),
    kind: 'archive' as const,
    messageIds: originals.map((m) => m.id),
    createdAt: first.createdAt,
    start: first.createdAt,
    end: last.createdAt,
  };
  const context = before === undefined ? '' : contextOf(before);
  const text = turnText(originals);
  const spans = text.length === 0 ? [] : (oneChunk(text, split) ?? splitTextSpans(text, split));
  return spans.map((span, i) => ({
    id: `${first.id}:${i}`,
    text: span.text,
    ...(i === 0 && context.length > 0 ? { context } : {}),
    tokenCount: span.tokenCount,
    metadata: { ...metadata, messageIds: [...metadata.messageIds] },
  }));
}

/** Prose rarely averages more UTF-16 units per token than this (English ~4). */
export const MAX_CHARS_PER_TOKEN = 8;

/**
 * The text as its only chunk when it counts at most `chunkSize` tokens (most interactions), for
 * one count instead of the splitter's encoding, boundaries and count; `undefined` when it needs
 * cutting. A token is at least one UTF-16 unit, so text no longer than a chunk always fits; text
 * too long to plausibly fit goes straight to the splitter without the extra count.
 */
export function oneChunk(
  text: string,
  split: ChunkSplit,
): [{ text: string; tokenCount: number }] | undefined {
  if (text.length > split.chunkSize * MAX_CHARS_PER_TOKEN) return undefined;
  const tokenCount = split.counter.countText(text);
  return tokenCount <= split.chunkSize || text.length <= split.chunkSize
    ? [{ text, tokenCount }]
    : undefined;
}

/** Search context is for finding, not reading: the first characters of the message before do. */
const MAX_CONTEXT_CHARS = 2_000;

function contextOf(message: CountedMessage): string {
  if (isSummaryMessage(message)) return '';
  return turnText([message]).slice(0, MAX_CONTEXT_CHARS);
}
