import { CONTINUATION_INDENT, EARLIER_SUMMARY_LABEL } from './render-transcript.ts';
import type { TranscriptEntry } from './transcript-entry.ts';

const ROLES = { User: 'user', Assistant: 'assistant', System: 'system' } as const;
// `s` flag: a line may hold U+2028/U+2029, which `.` would not match otherwise.
const ROLE_LINE = /^(User|Assistant|System)(?: \(([^)]*)\))?:(?: (.*))?$/s;
const RESULT_LINE = /^← (\S+?)( \[error\])?:(?: (.*))?$/s;
const CALL_LINE = /^→ ([^\s(]+)\((.*)$/s;

type Open =
  | { kind: 'message'; role: 'user' | 'assistant' | 'system'; name: string | undefined }
  | { kind: 'tool-result'; toolName: string; isError: boolean }
  | { kind: 'call'; name: string }
  | { kind: 'summary' }
  | { kind: 'text' };

function trimBlankEnds(lines: string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim().length === 0) start++;
  while (end > start && lines[end - 1]!.trim().length === 0) end--;
  return lines.slice(start, end).join('\n');
}

/** A block's text: its first line as written (on the label line), then its other lines without trailing blanks. */
function blockText(lines: string[]): string {
  const [first = '', ...rest] = lines;
  let end = rest.length;
  while (end > 0 && rest[end - 1]!.trim().length === 0) end--;
  return end === 0 ? first : [first, ...rest.slice(0, end)].join('\n');
}

function opening(line: string): { open: Open; first: string | undefined } | null {
  let m = ROLE_LINE.exec(line);
  if (m) {
    const role = ROLES[m[1] as keyof typeof ROLES];
    return { open: { kind: 'message', role, name: m[2] }, first: m[3] };
  }
  m = RESULT_LINE.exec(line);
  if (m)
    return {
      open: { kind: 'tool-result', toolName: m[1]!, isError: m[2] !== undefined },
      first: m[3],
    };
  m = CALL_LINE.exec(line);
  if (m) return { open: { kind: 'call', name: m[1]! }, first: m[2] };
  if (line === EARLIER_SUMMARY_LABEL) return { open: { kind: 'summary' }, first: undefined };
  return null;
}

/**
 * Reads transcript text (as written by `renderTranscript`) back into entries. Lines outside any
 * labelled block become `text` entries, so any text can be parsed.
 */
export function parseTranscript(text: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  let open: Open | null = null;
  let lines: string[] = [];

  const close = () => {
    if (open === null) return;
    if (open.kind === 'message') {
      entries.push({
        kind: 'message',
        role: open.role,
        ...(open.name === undefined ? {} : { name: open.name }),
        text: blockText(lines),
        toolCalls: [],
      });
    } else if (open.kind === 'tool-result') {
      const { toolName, isError } = open;
      entries.push({ kind: 'tool-result', toolName, isError, text: blockText(lines) });
    } else if (open.kind === 'call') {
      const raw = lines.join('\n').trimEnd();
      const call = { name: open.name, arguments: raw.endsWith(')') ? raw.slice(0, -1) : raw };
      const last = entries.at(-1);
      if (last?.kind === 'message' && last.role === 'assistant') last.toolCalls.push(call);
      else entries.push({ kind: 'message', role: 'assistant', text: '', toolCalls: [call] });
    } else {
      const body = trimBlankEnds(lines);
      if (body.length > 0) entries.push({ kind: open.kind, text: body });
    }
    open = null;
    lines = [];
  };

  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const inBlock = open !== null && open.kind !== 'text';
    if (inBlock && (line.length === 0 || line.startsWith(CONTINUATION_INDENT))) {
      lines.push(line.slice(CONTINUATION_INDENT.length));
      continue;
    }
    const start = opening(line);
    if (start !== null) {
      close();
      open = start.open;
      lines = [start.first ?? ''];
    } else if (open?.kind === 'text') {
      lines.push(line);
    } else {
      close();
      open = { kind: 'text' };
      lines = [line];
    }
  }
  close();
  return entries;
}
