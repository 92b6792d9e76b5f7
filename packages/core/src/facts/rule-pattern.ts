import type { Token } from './rule-text.ts';

/**
 * A statement pattern of the rules extractor: the words a statement starts with (matched as
 * tokens, not as a regular expression), the kind of value that follows, and the fact it makes.
 */

export type RuleLanguage = 'en' | 'de' | 'fr' | 'es' | 'pt';

/**
 * - `name`: one to four name words; `place`, `org`: a place or an organisation (up to six words);
 * - `job`: an occupation from the language's list of jobs (`a senior nurse`);
 * - `job-free`: any short occupation (after `i work as`); `thing`: what someone likes;
 * - `rest`: the rest of the sentence (`remember that ...`); `none`: the words are the fact;
 * - `names`: one or more names (`Ava and Noah`, `Ava, Noah and Lea`);
 * - `choice`: a thing, then optionally `over`/`to`/`than`/`rather than`/`instead of` and the
 *   thing it is preferred to (`email over phone calls`), in `other`.
 */
export type Slot =
  | 'name'
  | 'names'
  | 'place'
  | 'org'
  | 'job'
  | 'job-free'
  | 'thing'
  | 'choice'
  | 'rest'
  | 'none';

export type Candidate =
  | { kind: 'set'; about: string; text: string; value: string }
  | { kind: 'retract'; about: string; value?: string }
  | { kind: 'forget'; value: string; tokens: Token[]; src: string };

export interface PatternMatch {
  /** The value in the user's own words. */
  value: string;
  /** The value as a key (`preference:<key>`): lower case, without leading articles. */
  key: string;
  /** The pattern's words as written by the user, lower case. */
  words: string[];
  /** The last word of the pattern as written (`à`, `no`, `in`): some languages' facts repeat it. */
  prep: string;
  /** `nicht` after the value, or `any more` / `no longer`: the statement is negated. */
  negated: boolean;
  noLonger: boolean;
  /** The thing a `choice` is preferred to (`phone calls` in `email over phone calls`). */
  other?: string;
}

export interface RulePattern {
  lang: RuleLanguage;
  /** `|`-separated phrases; words separated by spaces; `a/b` alternatives; `x?` optional. */
  say: string;
  slot: Slot;
  /** Only after a greeting (`hi, i'm Ana`): `i'm X` alone is too often not a name. */
  greeting?: boolean;
  /** Also in a question (`can you remember that ...?`). */
  request?: boolean;
  /** `forget that ...`: removes the facts the rest of the sentence names (a `rest` slot). */
  forget?: boolean;
  /** The value must have a capitalized word, even in an all-lower-case sentence. */
  capOnly?: boolean;
  /** The word that must follow the value (`ich bin nach Berlin gezogen`). */
  followedBy?: ReadonlySet<string>;
  /** Occupations for the `job` slot. */
  jobs?: ReadonlySet<string>;
  build(m: PatternMatch): Candidate | undefined;
  /**
   * What may follow the value, introduced by one of `preps`: the employer after a job (`i'm a
   * nurse at St Mary's`), the job after an employer (`i work at Spotify as a data engineer`).
   */
  after?: {
    preps: ReadonlySet<string>;
    slot: Slot;
    build(value: string, prep: string): Candidate;
  }[];
  /** `choice`: only with the thing it is preferred to (`i'd rather X than Y`). */
  needsOther?: boolean;
  /** `rest`: only a statement inside it counts (`keep in mind I'm vegan`), never the words. */
  innerOnly?: boolean;
  /**
   * Only in the first clause of a message (or right after a greeting), with a comma and more
   * after the value: `I'm Dave, ...` at the start of a message is a name (`I'm Batman.` is not).
   */
  opening?: boolean;
  /** A statement without its subject (`just moved to Austin`, `... und wohne in Leipzig`). */
  subjectless?: boolean;
}

export interface CompiledPattern {
  pattern: RulePattern;
  words: ReadonlySet<string>[];
}

function expand(tokens: string[]): string[][] {
  let out: string[][] = [[]];
  for (const t of tokens) {
    if (t.endsWith('?') && t.length > 1) {
      const word = t.slice(0, -1);
      out = [...out, ...out.map((seq) => [...seq, word])];
    } else out = out.map((seq) => [...seq, t]);
  }
  return out.filter((seq) => seq.length > 0);
}

/** Patterns by their first word, then by their second (`''` for one-word patterns). */
export type PatternIndex = ReadonlyMap<string, ReadonlyMap<string, readonly CompiledPattern[]>>;

/** Indexes patterns by their possible first and second words. */
export function compilePatterns(patterns: readonly RulePattern[]): PatternIndex {
  const index = new Map<string, Map<string, CompiledPattern[]>>();
  for (const pattern of patterns) {
    for (const phrase of pattern.say.split('|')) {
      for (const seq of expand(phrase.trim().split(/\s+/))) {
        const words = seq.map((t) => new Set(t.split('/')));
        for (const first of words[0] as Set<string>) {
          const bySecond = index.get(first) ?? new Map<string, CompiledPattern[]>();
          index.set(first, bySecond);
          for (const second of words[1] ?? ['']) {
            const list = bySecond.get(second) ?? [];
            bySecond.set(second, list);
            list.push({ pattern, words });
          }
        }
      }
    }
  }
  return index;
}

export const set = (about: string, text: string, value: string): Candidate => ({
  kind: 'set',
  about,
  text,
  value,
});

/** `a nurse`, `an engineer`. */
export const withArticle = (value: string) =>
  /^[aeiouAEIOU]/.test(value) ? `an ${value}` : `a ${value}`;

/** Joins a preposition and a value: `d'` + `Italie` -> `d'Italie`, `à` + `Lyon` -> `à Lyon`. */
export const prepJoin = (prep: string, value: string) =>
  prep.endsWith("'") || prep.endsWith('’') ? `${prep}${value}` : `${prep} ${value}`;

/** Upper-cases the first letter of a fact. */
export const sentenceCase = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * `ich führe eine kleine Bäckerei`, `tengo una panadería`: the business someone runs, when one of
 * the first three words of the value is in `businesses` (`tengo una pregunta` is not one).
 */
/** `tengo un restaurante favorito`: a favourite place, not one someone runs. */
const FAVORITE = /favou?rit|preferid|lieblings|préféré/iu;

export const runsBusiness =
  (verb: string, businesses: ReadonlySet<string>) =>
  (m: PatternMatch): Candidate | undefined =>
    m.value
      .toLowerCase()
      .split(/\s+/)
      .slice(0, 3)
      .some((w) => businesses.has(w)) && !FAVORITE.test(m.value)
      ? set('occupation', `${verb} ${m.value}.`, m.value)
      : undefined;
