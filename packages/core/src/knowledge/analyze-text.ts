import { stemmer } from 'stemmer';

/**
 * A small English stopword list: Lucene's English set without `no`/`not`, plus pronouns,
 * auxiliaries and contraction tails (`we'll` → `we`, `ll`). Kept short on purpose: in chat
 * history, words like "not", "before" or "after" carry meaning.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a an and are as at be been being but by can could d did do does for from had has have he her
  him his i if in into is it its ll m me my of on or our re s she so such t than that the their
  them then there these they this those to ve was we were what which who will with would you
  your`.split(/\s+/),
);

/** Longer terms are cut to this many characters (on both sides, so they still match). */
export const MAX_TERM_LENGTH = 64;

// Han, kana and the prolonged sound mark: scripts written without spaces.
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u30FC';
const WORD_CHAR = `(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])`;
const WORD = `${WORD_CHAR}+(?:[-_.]${WORD_CHAR}+)*`;
/**
 * One match per token: a CJK run (group 1), or a word (group 2) whose parts may be joined by
 * single `-`, `_` or `.` (`af-1042`, `v2.1`, `snake_case`), with a trailing possessive `'s`
 * consumed and dropped.
 */
const TOKEN = new RegExp(`([${CJK}]+)|(${WORD})(?:['\u2019]s(?![\\p{L}\\p{N}]))?`, 'gu');
/** `TOKEN` for ASCII text (no CJK; letters, digits; a possessive only with `'`): same matches. */
const ASCII_TOKEN = /([a-z0-9]+(?:[-_.][a-z0-9]+)*)(?:'s(?![a-z0-9]))?/g;
const JOINER = /[-_.]/;
// Latin combining diacritics, removed after canonical decomposition (like SQLite FTS5 unicode61).
const DIACRITICS = /[\u0300-\u036f]/g;

// Printable ASCII, tabs and newlines: text that Unicode normalization leaves as it is.
const ASCII = /^[\t\n\r\x20-\x7e]*$/;

/** Lowercase, compatibility-folded (`ﬁ` → `fi`, full-width → ASCII), Latin diacritics removed. */
export function normalizeText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  return foldText(text);
}

function foldText(text: string): string {
  return text.normalize('NFKD').replace(DIACRITICS, '').normalize('NFC').toLowerCase();
}

export interface AnalyzeOptions {
  /** Stem English words (default true; index and query must agree). */
  stem?: boolean;
}

/**
 * Turns text into index terms, in order, repeats kept (they are the term frequencies). Index and
 * query go through the same function, so both sides always agree.
 *
 * - Words are runs of Unicode letters, digits and marks, lowercased and folded (`normalizeText`):
 *   `Café` → `cafe`. Numbers are kept: `1042`, `3.5`.
 * - A compound joined by `-`, `_` or `.` is kept whole and also split into its parts, so
 *   `AF-1042` is found by `af-1042`, `af` and `1042`.
 * - A trailing possessive is stripped: `Alice's` → `alice`.
 * - English words (letters a-z only) are stemmed with the Porter stemmer, so `painted`,
 *   `painting` and `paints` all become `paint`. Other words are kept as they are.
 * - Stopwords (`STOPWORDS`) are dropped, also as compound parts.
 * - Han and kana, written without spaces, become overlapping bigrams (`東京都` → `東京`, `京都`);
 *   a single character stays a unigram.
 */
export function analyzeText(text: string, options: AnalyzeOptions = {}): string[] {
  const stem = options.stem ?? true;
  const terms: string[] = [];
  const ascii = ASCII.test(text);
  const normal = ascii ? text.toLowerCase() : foldText(text);
  for (const match of normal.matchAll(ascii ? ASCII_TOKEN : TOKEN)) {
    const cjk = ascii ? undefined : match[1];
    if (cjk !== undefined) {
      addBigrams(cjk, terms);
      continue;
    }
    const word = ascii ? match[1] : match[2];
    if (word === undefined) continue;
    addTerm(word, terms, stem);
    if (JOINER.test(word)) {
      for (const part of word.split(JOINER)) addTerm(part, terms, stem);
    }
  }
  return terms;
}

let lastQuery: { text: string; terms: readonly string[] } | undefined;

/**
 * `analyzeText(text)`, remembering the last text asked for: the engine analyzes a query (to
 * tell a follow-up) just before the knowledge base analyzes the same text again. The result is
 * shared: read it, do not change it.
 */
export function analyzeQuery(text: string): readonly string[] {
  if (lastQuery !== undefined && lastQuery.text === text) return lastQuery.terms;
  const terms = analyzeText(text);
  lastQuery = { text, terms };
  return terms;
}

const ENGLISH_WORD = /^[a-z]{3,}$/;

/**
 * Stems of words seen lately: chat repeats its words, and the Porter stemmer costs more than a
 * lookup. Bounded; cleared when full (it refills with the words in use).
 */
const stems = new Map<string, string>();
const MAX_STEMS = 20_000;

function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = stemmer(word);
    if (stems.size >= MAX_STEMS) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}

function addTerm(term: string, terms: string[], stem: boolean): void {
  if (STOPWORDS.has(term)) return;
  if (term.length > MAX_TERM_LENGTH) terms.push(cutTerm(term));
  else terms.push(stem && ENGLISH_WORD.test(term) ? stemOf(term) : term);
}

/** Cuts to MAX_TERM_LENGTH code units without splitting a surrogate pair. */
function cutTerm(term: string): string {
  const end = MAX_TERM_LENGTH;
  const code = term.charCodeAt(end - 1);
  return term.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}

function addBigrams(run: string, terms: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    terms.push(run);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) terms.push(`${chars[i]}${chars[i + 1]}`);
}
