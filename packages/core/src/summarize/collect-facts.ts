import { clip } from './clip-text.ts';
import { scoreSentence, splitSentences, TIER } from './score-sentence.ts';
import type { TranscriptEntry } from './transcript-entry.ts';

/** A candidate line of an extractive summary. */
export interface Fact {
  /** The line as written into the summary (`- User: ...`). */
  line: string;
  /** Chronological position; earlier summaries' lines come first. */
  order: number;
  score: number;
  /** Carried over from an earlier summary. */
  previous: boolean;
}

const MAX_SENTENCE_CHARS = 240;
const MAX_ERROR_CHARS = 200;
const MAX_RESULT_CHARS = 120;
const MAX_ARGS_CHARS = 60;
const LIST_MARKER = /^(?:[-*•]|\d+[.)])\s+/;
const ROLE_LABELS = { user: 'User', assistant: 'Assistant', system: 'System' } as const;

/**
 * Collects the candidate lines of an extractive summary: `earlierLines` (from earlier summaries)
 * first, then every sentence that carries an entity or a decision/error keyword, and one line per
 * tool result (`- tool(args) → ok: ...` / `→ error: ...`). Duplicates are dropped (first kept).
 */
export function collectFacts(
  entries: readonly TranscriptEntry[],
  earlierLines: readonly string[],
): Fact[] {
  const facts: Fact[] = [];
  const seen = new Set<string>();
  const add = (
    prefix: string,
    content: string,
    baseTier: number,
    previous: boolean,
    dedupeBy = content,
  ) => {
    const key = dedupeBy.toLowerCase();
    if (seen.has(key)) return;
    const { tier, entities, score } = scoreSentence(content, baseTier);
    if (tier === TIER.plain && entities === 0 && !previous) return;
    seen.add(key);
    facts.push({ line: `- ${prefix}${content}`, order: facts.length, score, previous });
  };

  for (const line of earlierLines) {
    // A list item is one fact already; free text (an LLM-written summary) is split into sentences.
    const pieces = LIST_MARKER.test(line) ? [line.replace(LIST_MARKER, '')] : splitSentences(line);
    for (const piece of pieces) add('', clip(piece, MAX_SENTENCE_CHARS), TIER.plain, true);
  }

  const pendingArgs = new Map<string, string[]>();
  for (const entry of entries) {
    switch (entry.kind) {
      case 'message': {
        const label = ROLE_LABELS[entry.role];
        const prefix = entry.name === undefined ? `${label}: ` : `${label} (${entry.name}): `;
        for (const s of splitSentences(entry.text)) {
          add(prefix, clip(s, MAX_SENTENCE_CHARS), TIER.plain, false);
        }
        for (const call of entry.toolCalls) {
          const queue = pendingArgs.get(call.name) ?? [];
          queue.push(call.arguments);
          pendingArgs.set(call.name, queue);
        }
        break;
      }
      case 'tool-result': {
        const args = pendingArgs.get(entry.toolName)?.shift();
        const call = args ? `${entry.toolName}(${clip(args, MAX_ARGS_CHARS)})` : entry.toolName;
        if (entry.isError) {
          // The same error again (other arguments) adds nothing; the header counts every error.
          const error = `error: ${clip(entry.text, MAX_ERROR_CHARS) || 'failed'}`;
          add('', `${call} → ${error}`, TIER.toolError, false, `${entry.toolName} → ${error}`);
        } else {
          const first = splitSentences(entry.text.slice(0, 4 * MAX_RESULT_CHARS))[0];
          const ok = first === undefined ? 'ok' : `ok: ${clip(first, MAX_RESULT_CHARS)}`;
          add('', `${call} → ${ok}`, TIER.tool, false);
        }
        break;
      }
      case 'text':
        for (const s of splitSentences(entry.text)) {
          add('', clip(s, MAX_SENTENCE_CHARS), TIER.plain, false);
        }
        break;
      case 'summary':
        break;
    }
  }
  return facts;
}
