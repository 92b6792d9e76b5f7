import { clip } from './clip-text.ts';
import type { TranscriptEntry } from './transcript-entry.ts';

/** First line of every extractive summary (the Memory Manager's heuristic fallback header). */
export const SUMMARY_HEADER_TITLE = '[Previous conversation summary]';
/** Introduces the extracted facts under the header. */
export const KEY_POINTS_LABEL = 'Key points:';

const SNIPPET_CHARS = 60;
const MAX_TOOLS_SHOWN = 20;

/** The counts the heuristic header reports. */
export interface SummaryHeader {
  userMessages: number;
  /** First and last user message, as shown (already shortened). */
  first: string | null;
  last: string | null;
  /** Tool names in order of first use. */
  tools: string[];
  errors: number;
}

/** The header counts of `entries` (summary entries are not counted; fold them in with `mergeHeaders`). */
export function headerOf(entries: readonly TranscriptEntry[]): SummaryHeader {
  let userMessages = 0;
  let first: string | null = null;
  let last: string | null = null;
  let errors = 0;
  const tools = new Set<string>();
  for (const entry of entries) {
    if (entry.kind === 'message') {
      for (const call of entry.toolCalls) tools.add(call.name);
      if (entry.role !== 'user') continue;
      userMessages++;
      last = entry.text;
      first ??= entry.text;
    } else if (entry.kind === 'tool-result') {
      tools.add(entry.toolName);
      if (entry.isError) errors++;
    }
  }
  return {
    userMessages,
    first: first === null ? null : clip(first, SNIPPET_CHARS, '...'),
    last: last === null ? null : clip(last, SNIPPET_CHARS, '...'),
    tools: [...tools],
    errors,
  };
}

/** The header of `earlier` and `later` history together. */
export function mergeHeaders(earlier: SummaryHeader, later: SummaryHeader): SummaryHeader {
  return {
    userMessages: earlier.userMessages + later.userMessages,
    first: earlier.first ?? later.first,
    last: later.last ?? earlier.last,
    tools: [...new Set([...earlier.tools, ...later.tools])],
    errors: earlier.errors + later.errors,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The header's lines, title first. `Last` is shown when there is more than one user message. */
export function renderHeader(header: SummaryHeader): string[] {
  const lines = [SUMMARY_HEADER_TITLE, plural(header.userMessages, 'user message')];
  if (header.first !== null) lines.push(`First: "${header.first}"`);
  if (header.last !== null && header.userMessages > 1) lines.push(`Last: "${header.last}"`);
  if (header.tools.length > 0) {
    const shown = header.tools.slice(0, MAX_TOOLS_SHOWN);
    const more = header.tools.length - shown.length;
    lines.push(`Tools used: ${shown.join(', ')}${more > 0 ? `, +${more} more` : ''}`);
  }
  if (header.errors > 0) lines.push(`${plural(header.errors, 'error')} encountered`);
  return lines;
}

const USERS_LINE = /^(\d+) user messages?$/;
const FIRST_LINE = /^First: "(.*)"$/;
const LAST_LINE = /^Last: "(.*)"$/;
const TOOLS_LINE = /^Tools used: (.*)$/;
const ERRORS_LINE = /^(\d+) errors? encountered$/;
const MORE_TOOLS = /^\+\d+ more$/;
const MAX_PREAMBLE_LINES = 3;

/** An earlier summary split into its header (when it has one) and its other lines. */
export interface ParsedSummary {
  header: SummaryHeader | null;
  lines: string[];
}

/** Applies one header line to `header`; false when `line` is not a header line. */
function readHeaderLine(header: SummaryHeader, line: string): boolean {
  const users = USERS_LINE.exec(line);
  if (users) header.userMessages = Number(users[1]);
  const first = FIRST_LINE.exec(line);
  if (first) header.first = first[1]!;
  const last = LAST_LINE.exec(line);
  if (last) header.last = last[1]!;
  const tools = TOOLS_LINE.exec(line);
  if (tools) {
    header.tools = tools[1]!.split(', ').filter((t) => t.length > 0 && !MORE_TOOLS.test(t));
  }
  const errors = ERRORS_LINE.exec(line);
  if (errors) header.errors = Number(errors[1]);
  return Boolean(users ?? first ?? last ?? tools ?? errors);
}

/**
 * Reads a summary back: the heuristic header of an extractive summary (when it has one, near its
 * start), and its other lines.
 */
export function parseSummary(text: string): ParsedSummary {
  const all = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const at = all.indexOf(SUMMARY_HEADER_TITLE);
  if (at === -1 || at > MAX_PREAMBLE_LINES) return { header: null, lines: all };
  const header: SummaryHeader = { userMessages: 0, first: null, last: null, tools: [], errors: 0 };
  // A heading before the title (e.g. the engine's "Summary of ... (time range):") is not a fact.
  const lines = all.slice(0, at).filter((l) => !l.endsWith(':'));
  let inHeader = true;
  for (const line of all.slice(at + 1)) {
    if (line === KEY_POINTS_LABEL) inHeader = false;
    else if (!inHeader || !readHeaderLine(header, line)) lines.push(line);
  }
  header.last ??= header.first;
  return { header, lines };
}
