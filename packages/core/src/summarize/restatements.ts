/**
 * Finds restatements among the facts of a summary: a sentence whose words (function words
 * aside) all occur in a fact the same speaker already stated. "Moved to Porto in March, did I
 * tell you?" restates "I moved to Porto in March and started a new job". Negations, numbers and
 * preference words count, so "I don't like Porto" does not restate "I like Porto".
 */

/** Words that do not change what a sentence states. */
const FUNCTION_WORDS = new Set(
  `a an and are as at be been being but by for from had has have he her him his i if in into is
  it its me my of on or our she so than that the their them then there these they this those to
  too us was we were what when where which who whom why will with would you your i'm i've i'll
  i'd you're it's that's there's just really very also did do does tell told say said know
  yeah yes oh wow haha ok okay hey hi well again actually`.split(/\s+/),
);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
/** Sentences with fewer distinct words are compared only by their exact text. */
const MIN_WORDS = 2;
/** Facts remembered per speaker and word (bounds the work per sentence). */
const MAX_FACTS_PER_WORD = 32;

/** The distinct words of `text` that say what it states, lowercased. */
export function statedWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const [word] of text.matchAll(WORD)) {
    const lower = word.toLowerCase().replaceAll('’', "'");
    if (FUNCTION_WORDS.has(lower) || (lower.length < 2 && !/\p{N}/u.test(lower))) continue;
    words.add(lower);
  }
  return words;
}

/** Remembers the facts kept so far; `restates` asks about a new sentence, and keeps it if new. */
export function createRestatementIndex() {
  const byWord = new Map<string, Set<string>[]>();
  return {
    /** True when `words` (of `speaker`) all occur in one fact kept before; else remembers them. */
    restates(speaker: string, words: ReadonlySet<string>): boolean {
      if (words.size < MIN_WORDS) return false;
      let fewest: Set<string>[] | undefined;
      for (const word of words) {
        const list = byWord.get(`${speaker}#${word}`);
        if (list === undefined) {
          fewest = undefined;
          break;
        }
        if (fewest === undefined || list.length < fewest.length) fewest = list;
      }
      if (fewest?.some((kept) => [...words].every((w) => kept.has(w)))) return true;
      const fact = new Set(words);
      for (const word of words) {
        const key = `${speaker}#${word}`;
        const list = byWord.get(key);
        if (list === undefined) byWord.set(key, [fact]);
        else if (list.length < MAX_FACTS_PER_WORD) list.push(fact);
      }
      return false;
    },
  };
}
