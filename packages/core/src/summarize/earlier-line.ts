import { clip } from './clip-text.ts';
import { splitSentences, TIER } from './score-sentence.ts';
import type { Speakers } from './speakers.ts';

/** A line of an earlier summary, read back. */
export type EarlierLine =
  /** A tool outcome (`search(...) → ok: ...`, `refund(...) → error: ...`), kept as written. */
  | { kind: 'tool'; text: string; tier: number; key: string }
  /** Sentences, and who said them when the line is attributed (`Lena: ...`, `User (Lena): ...`). */
  | {
      kind: 'sentences';
      sentences: string[];
      speaker?: string;
      role?: 'user' | 'assistant' | 'system';
      named: boolean;
    };

/** Longest tool line carried over (a new one may be longer: shortened once, when folded). */
const MAX_TOOL_LINE_CHARS = 240;
const LIST_MARKER = /^(?:[-*•]|\d+[.)])\s+/;
const TOOL_LINE = /^([^\s(]+)(?:\(.*?\))? → (ok|error)\b/s;
const ROLE_PREFIX = /^(User|Assistant|System)(?: \(([^)]{1,80})\))?: (.+)$/s;
const NAME_PREFIX = /^([^:]{1,80}): (.+)$/s;
const ROLES = { User: 'user', Assistant: 'assistant', System: 'system' } as const;

/**
 * Reads a line of an earlier summary. A list item is one fact; free text (an LLM-written
 * summary) is split into sentences. `User (Lena): ` (the older format) reads as `Lena: `.
 */
export function readEarlierLine(raw: string, speakers: Speakers): EarlierLine {
  const item = LIST_MARKER.test(raw);
  const line = item ? raw.replace(LIST_MARKER, '') : raw;
  const tool = TOOL_LINE.exec(line);
  if (tool !== null) {
    const text = clip(line, MAX_TOOL_LINE_CHARS);
    const outcome = text.slice(text.indexOf(' → '));
    const error = tool[2] === 'error';
    return {
      kind: 'tool',
      text,
      tier: error ? TIER.toolError : TIER.plain,
      // Like a new tool error's key: the same error with other arguments adds nothing.
      key: error ? `${tool[1]}${outcome}` : line,
    };
  }
  const pieces = (text: string) => (item ? [text] : splitSentences(text));
  const role = ROLE_PREFIX.exec(line);
  if (role !== null) {
    const label = role[1] as keyof typeof ROLES;
    const name = role[2];
    return {
      kind: 'sentences',
      sentences: pieces(role[3]!),
      speaker: name ?? label,
      role: ROLES[label],
      named: name !== undefined,
    };
  }
  const named = NAME_PREFIX.exec(line);
  if (named !== null && speakers.roleOf(named[1]!) !== undefined) {
    return { kind: 'sentences', sentences: pieces(named[2]!), speaker: named[1]!, named: true };
  }
  return { kind: 'sentences', sentences: pieces(line), named: false };
}
