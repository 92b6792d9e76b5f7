import type { CompiledPattern, PatternIndex, PatternMatch, RulePattern } from './rule-pattern.ts';
import type { Token } from './rule-text.ts';
import {
  ADDRESSEE,
  ADVERBS,
  ARTICLES,
  CONVERSATION_NOUNS,
  NOT_EMPLOYER,
  NOT_JOB,
  NOT_NAME,
  NOT_PLACE,
  NOT_SIGN_IN,
  NOT_THING,
  TALK_VERBS,
  TERMINATORS,
  TRAILING,
} from './rule-words.ts';

/** What a value slot read: tokens `[from, to)` of the sentence, and what came after. */
interface Span {
  from: number;
  to: number;
  negated: boolean;
  /** `choice`: the thing it is preferred to. */
  other?: { from: number; to: number };
}

const NAME_WORD = /^[\p{L}\p{M}'’.-]{1,30}$/u;
const NAME_PARTICLES = new Set([
  'de',
  'da',
  'do',
  'dos',
  'das',
  'van',
  'von',
  'der',
  'del',
  'di',
  'du',
  'la',
  'le',
  'y',
  'e',
  'bin',
  'al',
  'el',
  'ten',
  'st',
]);
const VALUE_LEAD = new Set(['mucho', 'muito', 'beaucoup', 'bien', 'sehr', 'gern', 'gerne']);
const JOB_ARTICLES = new Set(['a', 'an', 'ein', 'eine', 'einen', 'un', 'une', 'una', 'um', 'uma']);
const PREFERENCE_SPLIT = new Set([
  'au',
  'aux',
  'al',
  'over',
  'to',
  'rather',
  'instead',
  'than',
  'à',
  'a',
  'als',
  'que',
  'more',
]);
const NEGATION_AFTER = new Set(['nicht']);
const NO_LONGER = new Set(['anymore', 'longer', 'mehr', 'plus', 'más', 'mais']);

/** A time after a value (`Porto last month`, `Curitiba no ano passado`) ends it. */
const TIME_NOUNS = new Set([
  'year',
  'years',
  'month',
  'months',
  'week',
  'weeks',
  'jahr',
  'jahren',
  'monat',
  'monaten',
  'woche',
  'an',
  'ans',
  'année',
  'mois',
  'semaine',
  'año',
  'años',
  'mes',
  'meses',
  'semana',
  'ano',
  'anos',
  'mês',
  'passado',
  'pasado',
  'dernier',
  'dernière',
  'passée',
]);
const MAX_REST_WORDS = 40;
const isTerminator = (t: Token) => !t.cap && TERMINATORS.has(t.norm);
const hasLetter = (s: string) => /\p{L}/u.test(s);

/** Tokens of a value from `i`: up to `max`, stopping at a clause boundary or a terminator. */
function span(tokens: readonly Token[], i: number, max: number): Span | undefined {
  let j = i;
  while (j < tokens.length && j - i < max) {
    const t = tokens[j] as Token;
    if (t.sep === true || (j > i && isTerminator(t))) break;
    if (j > i && !t.cap && (TIME_NOUNS.has(t.norm) || TIME_NOUNS.has(tokens[j + 1]?.norm ?? '')))
      break;
    j++;
  }
  let negated = false;
  while (j > i) {
    const last = tokens[j - 1] as Token;
    if (NEGATION_AFTER.has(last.norm)) negated = true;
    else if (!(TRAILING.has(last.norm) && !last.cap)) break;
    j--;
  }
  if (j < tokens.length && NEGATION_AFTER.has((tokens[j] as Token).norm)) negated = true;
  return j > i ? { from: i, to: j, negated } : undefined;
}

function nameSpan(tokens: readonly Token[], i: number, lowerOnly: boolean): Span | undefined {
  const first = tokens[i];
  if (first === undefined || first.sep === true || NOT_NAME.has(first.norm)) return undefined;
  if (!NAME_WORD.test(first.raw)) return undefined;
  // `call me when you can`: a clause word is never a lower-case name.
  if (!first.cap && (TERMINATORS.has(first.norm) || NOT_THING.has(first.norm))) return undefined;
  if (!first.cap) return lowerOnly ? { from: i, to: i + 1, negated: false } : undefined;
  let j = i + 1;
  while (j < tokens.length && j - i < 4) {
    const t = tokens[j] as Token;
    const next = tokens[j + 1];
    if (t.cap && NAME_WORD.test(t.raw) && !NOT_NAME.has(t.norm)) j++;
    else if (NAME_PARTICLES.has(t.norm) && next?.cap === true && NAME_WORD.test(next.raw)) j += 2;
    else break;
  }
  return { from: i, to: j, negated: false };
}

const PROPER_PARTICLES = new Set([
  ...NAME_PARTICLES,
  'of',
  'upon',
  'on',
  'am',
  'an',
  'im',
  'sur',
  'en',
  'della',
  'des',
]);

/**
 * A value that starts with a proper name (after an article) is that name: `Vancouver the rain
 * has been brutal` is `Vancouver`, `Rio de Janeiro` stays whole.
 */
function properName(tokens: readonly Token[], s: Span | undefined): Span | undefined {
  if (s === undefined) return undefined;
  let k = s.from;
  if (ARTICLES.has((tokens[k] as Token).norm) && !(tokens[k] as Token).cap && k + 1 < s.to) k++;
  if (!(tokens[k] as Token).cap) return s;
  for (k++; k < s.to; k++) {
    const t = tokens[k] as Token;
    if (t.cap) continue;
    if (PROPER_PARTICLES.has(t.norm) && tokens[k + 1]?.cap === true && k + 1 < s.to) continue;
    return { ...s, to: k };
  }
  return s;
}

function placeOk(tokens: readonly Token[], s: Span, lowerOnly: boolean, capOnly: boolean) {
  let cap = false;
  for (let k = s.from; k < s.to; k++) {
    const t = tokens[k] as Token;
    if (NOT_PLACE.has(t.norm)) return false;
    if (t.cap) cap = true;
  }
  if (cap) return true;
  if (capOnly) return false;
  const first = (tokens[s.from] as Token).norm;
  if (ARTICLES.has(first)) return s.to - s.from >= 2 && s.to - s.from <= 4;
  return lowerOnly;
}

function jobSpan(tokens: readonly Token[], i: number, jobs: ReadonlySet<string>): Span | undefined {
  let from = i;
  if (JOB_ARTICLES.has(tokens[from]?.norm ?? '')) from++;
  for (let k = from; k < tokens.length && k - from < 4; k++) {
    const t = tokens[k] as Token;
    if (t.sep === true || isTerminator(t) || NOT_THING.has(t.norm)) return undefined;
    if (jobs.has(t.norm)) {
      let to = k + 1;
      while (to < tokens.length && to - from < 5 && jobs.has((tokens[to] as Token).norm)) to++;
      return { from, to, negated: false };
    }
  }
  return undefined;
}

function thingOk(tokens: readonly Token[], s: Span): boolean {
  const first = tokens[s.from] as Token;
  if (NOT_THING.has(first.norm)) return false;
  if (first.norm === 'to') {
    const verb = tokens[s.from + 1];
    if (verb === undefined || s.to - s.from < 2 || TALK_VERBS.has(verb.norm)) return false;
  }
  for (let k = s.from; k < s.to; k++) {
    const norm = (tokens[k] as Token).norm;
    if (CONVERSATION_NOUNS.has(norm) || ADDRESSEE.has(norm)) return false;
  }
  return true;
}

/** `Ava and Noah`, `Ava, Noah and Lea`: up to four names joined by `,` `and` `&`. */
function namesSpan(tokens: readonly Token[], i: number, lowerOnly: boolean): Span | undefined {
  const first = nameSpan(tokens, i, lowerOnly);
  if (first === undefined) return undefined;
  let to = first.to;
  for (let n = 1; n < 4; n++) {
    const join = tokens[to]?.norm ?? '';
    if (join !== ',' && join !== 'and' && join !== '&') break;
    let at = to + 1;
    if (join === ',' && tokens[at]?.norm === 'and') at++;
    const next = nameSpan(tokens, at, lowerOnly);
    if (next === undefined) break;
    to = next.to;
  }
  return { from: i, to, negated: false };
}

/** Words between which a choice is split: `email over phone calls`, `walk than drive`. */
const CHOICE_SPLIT = new Set(['over', 'to', 'than', 'rather', 'instead']);
/** Verbs dropped before a choice: `i'd rather have bullet points than paragraphs`. */
const CHOICE_VERBS = new Set(['have', 'get', 'use', 'receive', 'see']);

function choiceSpan(tokens: readonly Token[], i: number): Span | undefined {
  let at = i;
  while (VALUE_LEAD.has(tokens[at]?.norm ?? '')) at++;
  if (CHOICE_VERBS.has(tokens[at]?.norm ?? '') && !CHOICE_SPLIT.has(tokens[at + 1]?.norm ?? '')) {
    at++;
  }
  const s = span(tokens, at, 6);
  if (s === undefined || !thingOk(tokens, s)) return undefined;
  let k = s.from + 1;
  while (k < s.to && !CHOICE_SPLIT.has((tokens[k] as Token).norm)) k++;
  const split = tokens[k];
  if (split === undefined || split.sep === true || !CHOICE_SPLIT.has(split.norm)) {
    return { ...s, to: k };
  }
  let y = k + 1;
  if (split.norm === 'rather' && tokens[y]?.norm === 'than') y++;
  else if (split.norm === 'instead' && tokens[y]?.norm === 'of') y++;
  else if (split.norm === 'rather' || split.norm === 'instead') return { ...s, to: k };
  if (CHOICE_VERBS.has(tokens[y]?.norm ?? '')) y++;
  const other = span(tokens, y, 5);
  const x = { ...s, to: k };
  return other !== undefined && thingOk(tokens, other) ? { ...x, other } : x;
}

/** Reads the value of `pattern` at token `i`; undefined when what follows is not one. */
export function readValue(
  p: Pick<RulePattern, 'slot' | 'capOnly' | 'jobs'>,
  tokens: readonly Token[],
  i: number,
  lowerOnly: boolean,
) {
  let at = i;
  switch (p.slot) {
    case 'none':
      return { from: i, to: i, negated: false };
    case 'name':
      return nameSpan(tokens, at, lowerOnly && p.capOnly !== true);
    case 'names':
      return namesSpan(tokens, at, lowerOnly && p.capOnly !== true);
    case 'choice':
      return choiceSpan(tokens, at);
    case 'place': {
      const s = properName(tokens, span(tokens, at, 6));
      // `Sprint 14`, `Room 3`: a numbered thing, not a place (`Berlin 2 years ago` is one).
      if (s === undefined) return undefined;
      const after = tokens[s.to];
      if (
        after !== undefined &&
        /^\d/.test(after.norm) &&
        !TIME_NOUNS.has(tokens[s.to + 1]?.norm ?? '')
      ) {
        return undefined;
      }
      return placeOk(tokens, s, lowerOnly, p.capOnly === true) ? s : undefined;
    }
    case 'org': {
      let s = properName(tokens, span(tokens, at, 6));
      if (s === undefined) return undefined;
      for (let k = s.from + 1; k < s.to; k++) {
        const t = tokens[k] as Token;
        if (t.norm === 'in' && !t.cap) s = { ...s, to: k };
      }
      let first = (tokens[s.from] as Token).norm;
      if (ARTICLES.has(first) && s.to - s.from > 1) first = (tokens[s.from + 1] as Token).norm;
      if (NOT_EMPLOYER.has(first)) return undefined;
      return placeOk(tokens, s, lowerOnly, p.capOnly === true) ? s : undefined;
    }
    case 'job':
      return jobSpan(tokens, at, p.jobs ?? new Set());
    case 'job-free': {
      if (JOB_ARTICLES.has(tokens[at]?.norm ?? '')) at++;
      const s = span(tokens, at, 4);
      if (s === undefined || NOT_JOB.has((tokens[s.from] as Token).norm)) return undefined;
      return thingOk(tokens, s) ? s : undefined;
    }
    case 'thing': {
      while (VALUE_LEAD.has(tokens[at]?.norm ?? '')) at++;
      const s = span(tokens, at, 6);
      return s !== undefined && thingOk(tokens, s) ? s : undefined;
    }
    case 'rest': {
      let end = at;
      while (end < tokens.length && (tokens[end] as Token).norm !== '"') end++;
      const first = tokens[at];
      // Something to remember is a sentence, not a page.
      if (end - at < 2 || end - at > MAX_REST_WORDS || first === undefined) return undefined;
      if (
        [
          'what',
          'when',
          'where',
          'how',
          'who',
          'why',
          'which',
          'me',
          'the',
          'this',
          'if',
          'that',
          'dass',
          'que',
          'de',
          'se',
        ].includes(first.norm)
      ) {
        return undefined;
      }
      return { from: at, to: end, negated: false };
    }
  }
}

/**
 * The key of a value: lower case, leading articles dropped, and for a liked thing only up to the
 * first `over`/`to`/`than` (`tea over coffee` is about tea).
 */
export function keyOf(tokens: readonly Token[], from: number, to: number, split = true): string {
  let i = from;
  while (i < to - 1 && ARTICLES.has((tokens[i] as Token).norm)) i++;
  const words: string[] = [];
  for (let k = i; k < to; k++) {
    const norm = (tokens[k] as Token).norm;
    if (split && k > i && PREFERENCE_SPLIT.has(norm)) break;
    if (norm !== "'s") words.push(norm);
  }
  return words.join(' ').slice(0, 100);
}

export interface MatchContext {
  src: string;
  tokens: readonly Token[];
  lowerOnly: boolean;
  afterGreeting: boolean;
  inQuestion: boolean;
  /** The statement begins its sentence or follows a conjunction (subjectless patterns). */
  clauseStart: boolean;
  /** The first clause of the message, or one right after a greeting (`opening` patterns). */
  opening: boolean;
}

/** The end of the pattern's words matched at `i` (adverbs between them skipped), or -1. */
function matchWords(c: CompiledPattern, tokens: readonly Token[], i: number): number {
  let j = i;
  for (let w = 0; w < c.words.length; w++) {
    const want = c.words[w] as ReadonlySet<string>;
    let skipped = 0;
    while (
      w > 0 &&
      skipped < 3 &&
      j < tokens.length &&
      !want.has((tokens[j] as Token).norm) &&
      (ADVERBS.has((tokens[j] as Token).norm) || /^\d{1,4}$/.test((tokens[j] as Token).norm))
    ) {
      j++;
      skipped++;
    }
    if (w > 0 && tokens[j]?.norm === ',' && !want.has(',')) j++;
    const t = tokens[j];
    if (t === undefined || t.sep === true || !want.has(t.norm)) return -1;
    j++;
  }
  return j;
}

/** Every pattern match starting at token `i`, as pattern + match + the value's token span. */
export function matchAt(
  index: PatternIndex,
  ctx: MatchContext,
  i: number,
): { pattern: RulePattern; match: PatternMatch; from: number; to: number }[] {
  const { tokens, src } = ctx;
  const first = tokens[i];
  const bySecond = first === undefined ? undefined : index.get(first.norm);
  if (bySecond === undefined) return [];
  // The second word may come after up to three adverbs (`i really like`), as `matchWords` allows.
  const candidates: CompiledPattern[] = [...(bySecond.get('') ?? [])];
  for (let k = i + 1; k < Math.min(tokens.length, i + 5); k++) {
    const norm = (tokens[k] as Token).norm;
    const list = bySecond.get(norm);
    if (list !== undefined) candidates.push(...list);
    if (!ADVERBS.has(norm) && !/^\d{1,4}$/.test(norm) && norm !== ',') break;
  }
  const out: { pattern: RulePattern; match: PatternMatch; from: number; to: number }[] = [];
  for (const c of candidates) {
    const p = c.pattern;
    if (p.greeting === true && !ctx.afterGreeting) continue;
    if (p.subjectless === true && !ctx.clauseStart) continue;
    if (ctx.inQuestion && p.request !== true) continue;
    if (p.opening === true && !ctx.opening) continue;
    const end = matchWords(c, tokens, i);
    if (end === -1) continue;
    let valueAt = end;
    if (p.slot === 'name' && ADVERBS.has(tokens[valueAt]?.norm ?? '')) valueAt++;
    const s = readValue(p, tokens, valueAt, ctx.lowerOnly);
    if (s === undefined) continue;
    if (p.needsOther === true && s.other === undefined) continue;
    if (p.opening === true) {
      // `I'm Dave, ...`: a comma and more; `I'm Batman.` alone is too often a joke.
      if (tokens[s.to]?.norm !== ',' || s.to + 1 >= tokens.length) continue;
      if (!openingName(tokens, s.from, s.to)) continue;
    }
    if (p.followedBy !== undefined) {
      const next = tokens[s.to]?.norm === ',' ? tokens[s.to + 1] : tokens[s.to];
      if (!p.followedBy.has(next?.norm ?? '')) continue;
    }
    const last = tokens[end - 1] as Token;
    const value =
      s.to > s.from
        ? src.slice((tokens[s.from] as Token).start, (tokens[s.to - 1] as Token).end)
        : '';
    if (p.slot !== 'none' && !hasLetter(value)) continue;
    let noLonger = false;
    for (let k = i; k < Math.min(tokens.length, s.to + 3); k++) {
      if (NO_LONGER.has((tokens[k] as Token).norm)) noLonger = true;
    }
    const words: string[] = [];
    for (let k = i; k < end; k++) words.push((tokens[k] as Token).norm);
    const match: PatternMatch = {
      value,
      key: s.to > s.from ? keyOf(tokens, s.from, s.to, p.slot === 'thing') : '',
      words,
      prep: src.slice(last.start, last.end),
      negated: s.negated,
      noLonger,
    };
    if (s.other !== undefined) {
      const a = tokens[s.other.from] as Token;
      const b = tokens[s.other.to - 1] as Token;
      match.other = src.slice(a.start, b.end);
    }
    out.push({ pattern: p, match, from: s.from, to: s.to });
  }
  return out;
}

/** A name at the opening of a message: one or two capitalized words, none a common word. */
function openingName(tokens: readonly Token[], from: number, to: number): boolean {
  if (to - from < 1 || to - from > 2) return false;
  for (let k = from; k < to; k++) {
    const t = tokens[k] as Token;
    if (!t.cap || !NAME_WORD.test(t.raw) || NOT_NAME.has(t.norm) || NOT_SIGN_IN.has(t.norm)) {
      return false;
    }
  }
  return true;
}

const AGAIN = new Set(['again', 'otra', 'outra', 'vez', 'nochmal', 'wieder', 'encore']);
const SIGN_IN = new Set(['here', 'again', 'hier', 'ici', 'aquí', 'aqui']);

/**
 * A sign-in at the opening of a message: `Maren here.`, `Hi Orla, Maren again.`, `Hey, it's
 * Dave`. The name comes before `here`/`again` (or after `it's`), and the clause ends there.
 */
export function readSignIn(
  ctx: MatchContext,
  at: number,
): { name: string; word: string } | undefined {
  const { tokens } = ctx;
  if (!ctx.opening || ctx.inQuestion) return undefined;
  let from = at;
  const itIs = tokens[at]?.norm === 'it' && tokens[at + 1]?.norm === 'is';
  if (itIs) {
    if (!ctx.afterGreeting) return undefined;
    from = at + 2;
  }
  let to = from;
  while (to < from + 3 && tokens[to]?.cap === true && tokens[to]?.sep !== true) to++;
  if (!openingName(tokens, from, to)) return undefined;
  let end = to;
  const word = itIs ? 'it' : (tokens[end]?.norm ?? '');
  if (SIGN_IN.has(word)) end++;
  else if (!itIs) return undefined;
  // `Maren here again`, `Joaquín aquí otra vez`, `Jonas hier nochmal`
  for (let n = 0; n < 2 && AGAIN.has(tokens[end]?.norm ?? ''); n++) end++;
  const next = tokens[end];
  if (next !== undefined && next.sep !== true && next.norm !== 'from') return undefined;
  const name = ctx.src.slice((tokens[from] as Token).start, (tokens[to - 1] as Token).end);
  return { name, word };
}
