import type { ContentPart, Message, Role } from '../model/message.ts';
import { isSummaryMessage } from '../model/message.ts';

/** A tool the assistant asked to run, as the transcript shows it. */
export interface TranscriptToolCall {
  name: string;
  arguments: string;
}

/**
 * One block of a summarization transcript. Built from messages (`toTranscriptEntries`) or parsed
 * back from transcript text (`parseTranscript`), so the extractive summarizer reads both alike.
 */
export type TranscriptEntry =
  | {
      kind: 'message';
      role: Exclude<Role, 'tool'>;
      name?: string;
      text: string;
      toolCalls: TranscriptToolCall[];
    }
  | { kind: 'tool-result'; toolName: string; isError: boolean; text: string }
  | { kind: 'summary'; text: string }
  /** Text outside any labelled block (a raw, hand-written transcript). */
  | { kind: 'text'; text: string };

/** Tool name shown for a tool message that does not carry one. */
export const UNKNOWN_TOOL_NAME = 'tool';

function partText(part: ContentPart): string | null {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
      return '[image]';
    case 'file':
      return part.filename === undefined
        ? `[file (${part.mediaType})]`
        : `[file ${part.filename} (${part.mediaType})]`;
    case 'reasoning':
    case 'provider':
      return null;
  }
}

/** A message's content as transcript text: text parts, plus placeholders for images and files. */
export function transcriptText(message: Pick<Message, 'content'>): string {
  const { content } = message;
  const raw =
    typeof content === 'string'
      ? content
      : content
          .map(partText)
          .filter((t): t is string => t !== null)
          .join('\n');
  return raw.replace(/\r\n?/g, '\n');
}

/** The transcript entries of `messages`, in order. */
export function toTranscriptEntries(messages: readonly Message[]): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (const message of messages) {
    const text = transcriptText(message);
    if (isSummaryMessage(message)) {
      out.push({ kind: 'summary', text });
    } else if (message.role === 'tool') {
      out.push({
        kind: 'tool-result',
        toolName: message.toolName ?? UNKNOWN_TOOL_NAME,
        isError: message.isError === true,
        text,
      });
    } else {
      out.push({
        kind: 'message',
        role: message.role,
        ...(message.name === undefined ? {} : { name: message.name }),
        text,
        toolCalls: (message.toolCalls ?? []).map((c) => ({ name: c.name, arguments: c.arguments })),
      });
    }
  }
  return out;
}

/**
 * Places an earlier summary's text among `entries`: it replaces the summary entry that holds it
 * (a summary message whose text is, or ends with, that text — e.g. behind a heading line), or
 * goes first when `entries` do not hold it. Returns a new array.
 */
export function withEarlierSummary(
  entries: readonly TranscriptEntry[],
  previousSummary: string | undefined,
): TranscriptEntry[] {
  const previous = previousSummary?.replace(/\r\n?/g, '\n').trim();
  if (!previous) return [...entries];
  const at = entries.findIndex((e) => e.kind === 'summary' && e.text.trim().endsWith(previous));
  if (at === -1) return [{ kind: 'summary', text: previous }, ...entries];
  return entries.map((e, i) => (i === at ? { kind: 'summary', text: previous } : e));
}
