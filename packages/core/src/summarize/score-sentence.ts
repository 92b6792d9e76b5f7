/** How much a sentence matters later; higher tiers always rank first. */
export const TIER = { plain: 0, tool: 1, decision: 2, error: 3, toolError: 4 } as const;

export interface SentenceScore {
  tier: number;
  /** Names, numbers, ids, dates, identifiers found in the sentence. */
  entities: number;
  /** `tier` first, then entity density. */
  score: number;
}

const ERROR_WORDS =
  /\b(?:errors?|fail(?:s|ed|ing|ure)?|exceptions?|crash(?:ed|es)?|time(?:d)? ?out|bugs?|broken|denied|refused|invalid|unable|cannot|can't|traceback|panic|ENOENT|EACCES|ECONNREFUSED|HTTP [45]\d\d)\b/i;
const DECISION_WORDS =
  /\b(?:decid(?:e|ed|es|ing)|decisions?|agree(?:d|s)?|approv(?:e|ed|es|al)|will|must|should|chose|chosen|choose|going with|confirm(?:ed|s)?|settled|final(?:ized)?|plan(?:ned)? to|todo|action items?|follow[- ]up|next steps?|need(?:s)? to|assign(?:ed)?|deadline|remind(?:er)?)\b/i;

/**
 * One match per entity-like word, tried only at word starts (after optional opening punctuation)
 * so the scan stays linear. Alternatives: a word with a digit or currency sign (amounts, ids like
 * AF-1042, percentages, dates, times); a mention or tag; a code identifier (read_file, api.ts,
 * a/b); a capitalised word (group 1: a name unless it is a common word); a date word.
 */
const ENTITY = new RegExp(
  String.raw`(?:^|\s)[("'\x60\[{<*]*(?:` +
    [
      String.raw`[^\s\d$£¥€₹]*[\d$£¥€₹]`,
      String.raw`[@#]\w`,
      String.raw`\S*?[A-Za-z0-9][_./:-][A-Za-z0-9]`,
      String.raw`(\p{Lu}[\p{L}'’]*)`,
      String.raw`(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday|tonight|noon|midnight|eod)\b`,
    ].join('|') +
    ')',
  'gu',
);

/** Common words that start sentences capitalised but are not names. */
const NOT_NAMES = new Set(
  (
    'I A An The This That These Those It Its We Our You Your He She They Their My Me Us ' +
    'And But Or So If Then Also Now Here There When Where What Why How Which Who Whom ' +
    'Is Are Was Were Be Been Do Does Did Can Could Would Should Will Shall May Might Must ' +
    'Please Thanks Thank Ok Okay Yes No Not Hi Hello Hey Sure Great Good Fine Let Lets ' +
    "Let's I'm I'll I've I'd It's That's There's We'll We're You're Don't Can't Won't " +
    'In On At For To From With By After Before About Into Over Under Just All Some Any ' +
    'Each Every One Two First Next Last Done Error Note Sorry Well Maybe Perhaps'
  ).split(' '),
);

/** Counts entity-like words: names, numbers and amounts, ids, dates, code identifiers, mentions. */
export function countEntities(sentence: string): number {
  let entities = 0;
  ENTITY.lastIndex = 0;
  for (let m = ENTITY.exec(sentence); m !== null; m = ENTITY.exec(sentence)) {
    const name = m[1];
    if (name === undefined || !NOT_NAMES.has(name.replaceAll('’', "'"))) entities++;
  }
  return entities;
}

/**
 * Scores a sentence: tool errors, then errors, then decisions and action items, then tool
 * outcomes, then the rest; within a tier by entity count and density (entities per character).
 */
export function scoreSentence(sentence: string, baseTier: number = TIER.plain): SentenceScore {
  const entities = countEntities(sentence);
  let tier = baseTier;
  if (tier < TIER.error && ERROR_WORDS.test(sentence)) tier = TIER.error;
  else if (tier < TIER.decision && DECISION_WORDS.test(sentence)) tier = TIER.decision;
  // About 6 characters a word: density is entities per 100 words, plus a point per entity.
  const density = Math.round((entities * 600) / (sentence.length + 24));
  return { tier, entities, score: tier * 1000 + Math.min(density + entities, 999) };
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
