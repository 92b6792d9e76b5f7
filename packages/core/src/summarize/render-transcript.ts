import type { Message } from '../model/message.ts';
import {
  type TranscriptEntry,
  toTranscriptEntries,
  withEarlierSummary,
} from './transcript-entry.ts';

/** Heading of an earlier summary's block in a transcript. */
export const EARLIER_SUMMARY_LABEL = '[Earlier summary]';
/** Marks a failed tool result: `← run_sql [error]: ...`. */
export const TOOL_ERROR_MARKER = '[error]';
/** Prefix of a tool call line: `→ read_file({"path":"a.ts"})`. */
export const TOOL_CALL_PREFIX = '→ ';
/** Prefix of a tool result line: `← read_file: ...`. */
export const TOOL_RESULT_PREFIX = '← ';
/** Continuation lines of a block are indented by this. */
export const CONTINUATION_INDENT = '  ';

const ROLE_LABELS = { user: 'User', assistant: 'Assistant', system: 'System' } as const;

export interface RenderTranscriptOptions {
  /** An earlier compaction's summary: shown first, or in place of the summary message holding it. */
  previousSummary?: string;
}

/** `text` with every later non-empty line indented, so a block stays one unit. */
function indentRest(text: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 || line.length === 0 ? line : `${CONTINUATION_INDENT}${line}`))
    .join('\n');
}

/** `head` followed by `text` (on the same line unless `text` starts with a newline). */
function labelled(head: string, text: string): string {
  if (text.length === 0) return head;
  return text.startsWith('\n') ? `${head}${indentRest(text)}` : `${head} ${indentRest(text)}`;
}

function renderEntry(entry: TranscriptEntry): string {
  switch (entry.kind) {
    case 'message': {
      const label = ROLE_LABELS[entry.role];
      const head = entry.name === undefined ? `${label}:` : `${label} (${entry.name}):`;
      const lines: string[] = [];
      if (entry.text.length > 0 || entry.toolCalls.length === 0)
        lines.push(labelled(head, entry.text));
      for (const call of entry.toolCalls) {
        lines.push(indentRest(`${TOOL_CALL_PREFIX}${call.name}(${call.arguments})`));
      }
      return lines.join('\n');
    }
    case 'tool-result': {
      const marker = entry.isError ? ` ${TOOL_ERROR_MARKER}` : '';
      return labelled(`${TOOL_RESULT_PREFIX}${entry.toolName}${marker}:`, entry.text);
    }
    case 'summary':
      return labelled(EARLIER_SUMMARY_LABEL, `\n${entry.text}`);
    case 'text':
      return entry.text;
  }
}

/** Renders transcript entries as text; `parseTranscript` reads it back. */
export function renderEntries(entries: readonly TranscriptEntry[]): string {
  return entries.map(renderEntry).join('\n');
}

/**
 * The text a summarizer is given for `messages`: one block per message, labelled by role
 * (`User:`, `Assistant (name):`, `System:`), tool calls as `→ tool_name(args)`, tool results as
 * `← tool_name: result` (`← tool_name [error]: ...` when the tool failed), and summaries as an
 * `[Earlier summary]` block. Later lines of a block are indented by two spaces. Deterministic.
 */
export function renderTranscript(
  messages: readonly Message[],
  options: RenderTranscriptOptions = {},
): string {
  return renderEntries(withEarlierSummary(toTranscriptEntries(messages), options.previousSummary));
}
