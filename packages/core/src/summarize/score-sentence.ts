import { countEntities } from './count-entities.ts';
import { countFactCues } from './fact-cues.ts';

/** How much a sentence matters later; higher tiers always rank first. */
export const TIER = { plain: 0, tool: 1, decision: 2, error: 3, toolError: 4 } as const;

export interface SentenceScore {
  tier: number;
  /** Names, numbers, ids, dates, identifiers found in the sentence. */
  entities: number;
  /** Kinds of personal fact (people, preference, plan, change of state, time) it states. */
  cues: number;
  /** `tier` first, then the density of entities and cues. */
  score: number;
}

export interface SentenceContext {
  /**
   * Said by a person (a user, or a named speaker in a conversation without tools): error
   * wording makes an error line only in the shape of a real error (`TypeError`, `HTTP 502`,
   * `failed:`), not in "I failed my driving test".
   */
  person?: boolean;
  /** Known names (`properNouns`): a capitalised first word counts only when listed. */
  names?: ReadonlySet<string>;
}

/** Wording of a failure in a tool result or an agent's report. "can't" or "!" is not one. */
const ERROR_WORDS =
  /\b(?:errors?|fail(?:s|ed|ing|ures?)?|exceptions?|crash(?:ed|es|ing)?|timed out|time ?outs?|bugs?|traceback|stack ?trace|panic(?:ked)?|segfault|(?:permission|access) denied|(?:connection )?refused|invalid|ENOENT|EACCES|ECONNREFUSED|ECONNRESET|ETIMEDOUT|HTTP [45]\d\d)\b/i;
/** An error's own shape, which a person pastes or quotes. */
const ERROR_SHAPE =
  /\b[A-Z]\w*(?:Error|Exception)\b|\b(?:[Ee]rror|ERROR|[Ff]ailed|FAILED|[Ee]xception)\s*:|\bE[A-Z]{4,}\b|\b(?:HTTP|[Ss]tatus|[Cc]ode)\s*[45]\d\d\b|\b[45]\d\d (?:Not Found|Forbidden|Unauthorized|Bad Request|Internal|Service Unavailable|Bad Gateway|Gateway Timeout|Conflict|Too Many)|\b[Tt]raceback\b|\b[Ss]tack ?trace\b|\b[Ee]xit (?:code|status)\b|\b(?:request|connection|query|build|job|call) timed out\b/;
/** Refusals and "can't" report a failure only beside what failed (an id, a status code). */
const WEAK_ERROR_WORDS = /\b(?:can(?:'|’|no)t|unable|denied|refused|broken|not permitted)\b/i;
/** Decisions and action items. Bare "will", "should" or "agree" are not (see `fact-cues.ts`). */
const DECISION_WORDS =
  /\b(?:decid(?:e|ed|es|ing)|decisions?|agreed (?:with|to|that|on)|we agreed|approv(?:e|ed|es|al)|chose|chosen|choose|(?:we're|we are|i'm|i am|let's|we'll|we) go(?:ing)? with|confirm(?:ed|s)?|settled on|final(?:ized|ised)|plan(?:ned)? to|todo|action items?|follow[- ]up|next steps?|assign(?:ed)?|deadline|due (?:by|on))\b/i;

/** Obligations and intentions: a decision or action item when they concern a name, date or id. */
const WEAK_DECISION_WORDS =
  /\b(?:will|shall|must|should|need(?:s)? to|have to|has to|agreed?|i'll|we'll|you'll|remind(?:er)?)\b/i;
const QUESTION = /\?\s*$/;

/**
 * Scores a sentence: tool errors, then errors, then decisions and action items, then tool
 * outcomes, then the rest; within a tier by the count and density (per character) of entities
 * and fact cues. A sentence with neither scores 0 within its tier.
 */
export function scoreSentence(
  sentence: string,
  baseTier: number = TIER.plain,
  context: SentenceContext = {},
): SentenceScore {
  const entities = countEntities(sentence, context.names);
  const cues = countFactCues(sentence);
  let tier = baseTier;
  if (tier < TIER.error && isError(sentence, entities, context.person === true)) tier = TIER.error;
  else if (tier < TIER.decision && !QUESTION.test(sentence) && isDecision(sentence, entities)) {
    tier = TIER.decision;
  }
  const weight = entities + cues;
  // About 6 characters a word: density is entities per 100 words, plus a point per entity.
  const density = Math.round((weight * 600) / (sentence.length + 24));
  return { tier, entities, cues, score: tier * 1000 + Math.min(density + weight, 999) };
}

/** An error: by its shape when a person says it, by its wording when an agent or a tool does. */
function isError(sentence: string, entities: number, person: boolean): boolean {
  if (person) return ERROR_SHAPE.test(sentence);
  return ERROR_WORDS.test(sentence) || (entities > 0 && WEAK_ERROR_WORDS.test(sentence));
}

/** A decision or action item; a question asks for one rather than making it. */
function isDecision(sentence: string, entities: number): boolean {
  return DECISION_WORDS.test(sentence) || (entities > 0 && WEAK_DECISION_WORDS.test(sentence));
}

const SENTENCE_BREAK = /\n+|(?<=[.!?])\s+(?=[^\s\d])/;

/** Splits text into trimmed, non-empty sentences (at line breaks and sentence-ending punctuation). */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(SENTENCE_BREAK)) {
    const sentence = piece.trim();
    if (sentence.length > 0) out.push(sentence);
  }
  return out;
}
