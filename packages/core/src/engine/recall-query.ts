import { analyzeQuery } from '../knowledge/analyze-text.ts';
import type { Interaction } from '../model/interaction.ts';
import { messageText } from '../model/message.ts';

/** Words that make a question but say nothing about what it is about. Still indexed. */
const QUESTION_WORDS =
  /(?<![\p{L}\p{N}])(?:who|whom|whose|what|when|where|which|why|how)(?![\p{L}\p{N}])/giu;
/** A turn that leans on the one before: "and tomorrow?", "what about Berlin?". */
const FOLLOW_UP_START = /^\s*(?:and|but|also|or|so|then|what about|how about)(?![\p{L}\p{N}])/iu;
/** A question with fewer search terms than this is searched with the previous user turn. */
const MIN_OWN_TERMS = 2;
/** Longer user messages are searched by their first this many characters. */
const MAX_QUERY_CHARS = 4_000;

/**
 * What the knowledge base is searched for when `interactions` end with a user turn: that turn
 * without its question words; a follow-up (starts with "and", "what about", … or has fewer than
 * two search terms of its own) is searched together with the previous user turn. `undefined`
 * when there is no user turn to search for.
 */
export function recallQuery(interactions: readonly Interaction[]): string | undefined {
  const newest = interactions.at(-1)?.messages[0];
  if (newest === undefined || newest.role !== 'user') return undefined;
  const previous = interactions.at(-2)?.messages[0];
  return searchQuery(
    messageText(newest),
    previous?.role === 'user' ? messageText(previous) : undefined,
  );
}

/** The search text for a user turn (see `recallQuery`), given the previous user turn if any. */
export function searchQuery(text: string, previous?: string): string {
  const own = withoutQuestionWords(text);
  if (previous === undefined || !isFollowUp(text, own)) return own;
  return `${withoutQuestionWords(previous)}\n${own}`;
}

function withoutQuestionWords(text: string): string {
  return text.slice(0, MAX_QUERY_CHARS).replace(QUESTION_WORDS, ' ');
}

function isFollowUp(text: string, own: string): boolean {
  return FOLLOW_UP_START.test(text) || analyzeQuery(own).length < MIN_OWN_TERMS;
}
