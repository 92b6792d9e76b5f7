/**
 * One match per entity-like word, tried only at word starts (after optional opening punctuation)
 * so the scan stays linear. Alternatives: a word with a digit or currency sign (amounts, ids like
 * AF-1042, percentages, dates, times); a mention or tag; a code identifier (read_file, api.ts,
 * a/b; not a hyphenated word like must-see); a capitalised word (group 1: a name unless it is a common word); a date word.
 */
const ENTITY = new RegExp(
  String.raw`(?:^|\s)[("'\x60\[{<*]*(?:` +
    [
      String.raw`[^\s\d$£¥€₹]*[\d$£¥€₹]`,
      String.raw`[@#]\w`,
      String.raw`\S*?[A-Za-z0-9][_./:][A-Za-z0-9]`,
      String.raw`(\p{Lu}[\p{L}'’]*)`,
      String.raw`(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday|tonight|noon|midnight|eod)\b`,
    ].join('|') +
    ')',
  'gu',
);

/** Common words that start sentences capitalised, and interjections: not names. */
const NOT_NAMES = new Set(
  (
    'I A An The This That These Those It Its We Our You Your He She They Their My Me Us ' +
    'And But Or So If Then Also Now Here There When Where What Why How Which Who Whom ' +
    'Is Are Was Were Be Been Do Does Did Can Could Would Should Will Shall May Might Must ' +
    'Please Thanks Thank Ok Okay OK Yes No Not Hi Hello Hey Sure Great Good Fine Let Lets ' +
    "Let's I'm I'll I've I'd It's That's There's We'll We're You're Don't Can't Won't " +
    'In On At For To From With By After Before About Into Over Under Just All Some Any ' +
    'Each Every One Two First Next Last Done Error Note Sorry Well Maybe Perhaps ' +
    'Oh Ah Aw Aww Wow Whoa Yeah Yep Yup Nope Haha Hahaha Lol LOL Omg OMG Congrats Cool ' +
    'Awesome Nice Totally Definitely Absolutely Exactly Agreed Bye Cheers Glad Love Plus'
  ).split(' '),
);

/** A capitalised word mid-sentence: after a word and a space or two, not after `.`, `!`, `?`. */
const MID_SENTENCE_CAPITAL = /(?<=[^\s.!?…"“([{*][ \t]{1,3})\p{Lu}[\p{L}'’]*/gu;
const POSSESSIVE = /['’]s?$/;
const ACRONYM = /^\p{Lu}{2,}/u;

/** `Melanie's` → `Melanie`. */
export const bareWord = (word: string): string => word.replace(POSSESSIVE, '');

/**
 * The capitalised words `texts` use mid-sentence: names, places and titles. A sentence's
 * capitalised first word counts as a name only when listed here (`Lisbon`, not `Wow`). One
 * linear scan per text.
 */
export function properNouns(texts: Iterable<string>): Set<string> {
  const names = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(MID_SENTENCE_CAPITAL)) {
      const word = bareWord(m[0].replaceAll('’', "'"));
      if (!NOT_NAMES.has(word)) names.add(word);
    }
  }
  return names;
}

/**
 * Counts entity-like words: names, numbers and amounts, ids, dates, code identifiers, mentions.
 * With `names` (from `properNouns`), a capitalised first word counts only when it is a known
 * name or an acronym.
 */
export function countEntities(sentence: string, names?: ReadonlySet<string>): number {
  let entities = 0;
  ENTITY.lastIndex = 0;
  for (let m = ENTITY.exec(sentence); m !== null; m = ENTITY.exec(sentence)) {
    const name = m[1];
    if (name === undefined) {
      entities++;
      continue;
    }
    const word = bareWord(name.replaceAll('’', "'"));
    if (NOT_NAMES.has(name.replaceAll('’', "'")) || NOT_NAMES.has(word)) continue;
    if (names === undefined || m.index > 0 || names.has(word) || ACRONYM.test(word)) entities++;
  }
  return entities;
}
