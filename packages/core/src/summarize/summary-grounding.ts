import { analyzeText, normalizeText } from '../knowledge/analyze-text.ts';
import {
  comparablesOf,
  holdsComparable,
  holdsName,
  type SourceComparables,
  sourceComparables,
} from './comparable-terms.ts';
import { foldForPhrase } from './error-phrases.ts';
import { declinesInFirstPerson, readsAsReply } from './reply-register.ts';
import { SERVICE_WORDS } from './service-words.ts';
import { refusesRequest, talksOfSummarizing } from './summarizing-talk.ts';
import { SUMMARY_HEADER_TITLE } from './summary-header.ts';

/**
 * Whether a summary is about its source. A summary of a conversation repeats some of its names,
 * numbers, ids or content words; an error message, a provider's error page or a reply about
 * something else does not. Judged on content terms (`analyzeText`: lowercased, stopwords
 * dropped, CJK as bigrams), not on phrases, so it also holds for error texts nobody listed.
 */

/** A source prepared once for every summary checked against it (all passes of one run). */
export interface SummarySource {
  /** The source text as given. */
  readonly text: string;
  /** Distinct content terms of the source. */
  readonly terms: ReadonlySet<string>;
  /** How many of `terms` can show a summary is about the source (not weak). */
  readonly evidence: number;
  /** The normalized source text, for words a summary shortened or cut. */
  readonly normalized: string;
  /** Stems of `terms` (`visited`, `visits` → `visit`): a summary may inflect a word differently. */
  readonly stems: ReadonlySet<string>;
  /** How many of the source's terms are written in each script (`latin`, `cjk`, ...). */
  readonly scripts: ReadonlyMap<string, number>;
  /** Its ids, numbers, identifiers and acronyms, compared across languages. */
  readonly comparables: SourceComparables;
  /** Most of its terms are in the Latin script: capitalised names can be compared with it. */
  readonly latin: boolean;
  /** The text lowercased with white space runs as one space, for error and refusal phrases. */
  readonly folded: string;
  /** The text itself speaks of summaries: a summary may then speak of summarizing. */
  readonly aboutSummaries: boolean;
  /** The text itself tells someone their request failed: a summary may then say so too. */
  readonly refusesRequest: boolean;
}

/** `reason` reads after "the summary": `is not about the conversation (...)`. */
export type Grounding = { grounded: true } | { grounded: false; reason: string };

/**
 * Words that a transcript's scaffolding ("User:", "tool") and provider error replies ("request
 * failed", "server error", "API key") both use: sharing them shows nothing, so they never count
 * as shared, though they count among a summary's terms.
 */
const WEAK_TERMS: ReadonlySet<string> = new Set(
  `user assistant system tool tools summary conversation earlier error errors failed fail failure
  request requests response status code server service http https www com api key internal
  connection please try again later temporarily unavailable sorry timeout
  about after all also any before because between both did does during each few had has here how
  just more most much must no not now only other out over same should some still under until up
  very when where while why yes`.split(/\s+/),
);

/** Lines and labels of the extractive summary's own format: they say nothing about the source. */
const FORMAT_LABELS =
  /^[ \t]*(?:\d+ user messages?|\d+ errors? encountered|First:|Last:|Tools used:|Key points:)|\[Previous conversation summary\]|\[Earlier summary\]/gm;

/** Scripts written without spaces that `analyzeText` keeps as one run: compared as bigrams. */
const UNSPACED =
  /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/u;
const SCRIPTS: readonly [string, RegExp][] = [
  ['latin', /\p{Script=Latin}/u],
  ['cjk', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['hangul', /\p{Script=Hangul}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['greek', /\p{Script=Greek}/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
  ['indic', /[\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Tamil}\p{Script=Telugu}]/u],
  ['unspaced', UNSPACED],
];
const LETTER = /\p{L}/u;

/** Fewer distinct evidence terms than this in the source: too little to judge a summary by. */
const MIN_SOURCE_TERMS = 3;
/** A source with at least this share of its terms in the Latin script can be checked for names. */
const MIN_LATIN_SHARE = 0.5;
/** A summary term this long also counts when the source holds it inside a longer word. */
const MIN_INFIX_TERM = 5;
/** English inflections a stem drops: `travellers`, `visited`, `booking`, `copies`, `damaged`. */
const INFLECTION = /(?:ies|ing|ed|s)$/;

function scriptOf(term: string): string | undefined {
  const letter = LETTER.exec(term)?.[0];
  if (letter === undefined) return undefined;
  return SCRIPTS.find(([, re]) => re.test(letter))?.[0] ?? 'other';
}

/** One or two Latin letters or digits (`a`, `0a`, `up`, `42`): too common to tell anything. */
const TINY = /^[\p{Script=Latin}\p{N}]{1,2}$/u;

/** Distinct terms of `text`, format labels and tiny terms left out, unspaced scripts as bigrams. */
function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  for (const term of analyzeText(text.replace(FORMAT_LABELS, ' '), { stem: false })) {
    if (TINY.test(term)) continue;
    if (term.length > 2 && UNSPACED.test(term)) {
      const chars = Array.from(term);
      for (let i = 0; i + 1 < chars.length; i++) terms.add(`${chars[i]}${chars[i + 1]}`);
    } else {
      terms.add(term);
    }
  }
  return terms;
}

/** A term that can show a summary is about its source: any but the weak ones. */
const isEvidence = (term: string): boolean => !WEAK_TERMS.has(term);

/** Prepares `text` (the transcript the summarizer was given) for `checkGrounding`. */
export function summarySource(text: string): SummarySource {
  const terms = termsOf(text);
  const scripts = new Map<string, number>();
  for (const term of terms) {
    const script = scriptOf(term);
    if (script !== undefined) scripts.set(script, (scripts.get(script) ?? 0) + 1);
  }
  let evidence = 0;
  for (const term of terms) if (isEvidence(term)) evidence++;
  const stems = new Set([...terms].map(stemOf));
  const normalized = normalizeText(text.replace(FORMAT_LABELS, ' '));
  const lettered = [...scripts.values()].reduce((a, b) => a + b, 0);
  const latin = (scripts.get('latin') ?? 0) >= lettered * MIN_LATIN_SHARE;
  const comparables = sourceComparables(text.replace(FORMAT_LABELS, ' '));
  const folded = foldForPhrase(text);
  const aboutSummaries = talksOfSummarizing(folded);
  const requestRefused = refusesRequest(folded);
  return {
    text,
    terms,
    evidence,
    normalized,
    stems,
    scripts,
    comparables,
    latin,
    folded,
    aboutSummaries,
    refusesRequest: requestRefused,
  };
}

/** `term` without an English inflection and a final `e` (Latin words of 4+ letters only). */
function stemOf(term: string): string {
  if (term.length < 4 || !/^[a-z]+$/.test(term)) return term;
  const bare = term.endsWith('ss')
    ? term
    : term.replace(INFLECTION, (m) => (m === 'ies' ? 'y' : ''));
  const stem = bare.length >= 3 ? bare : term;
  return stem.endsWith('e') && stem.length > 3 ? stem.slice(0, -1) : stem;
}

/** True when the source holds `term`: as a term, inside a longer word, or with another inflection. */
function sourceHolds(source: SummarySource, term: string): boolean {
  if (source.terms.has(term) || source.stems.has(stemOf(term))) return true;
  return term.length >= MIN_INFIX_TERM && source.normalized.includes(term);
}

/** A summary this much made of service words ("request", "quota", "retry") speaks about a service. */
const MAX_SERVICE_SHARE = 0.4;
/** ...and with nothing shared with its source, this much already. */
const MAX_SERVICE_SHARE_UNSHARED = 0.34;

/**
 * Checks that `summary` is about `source`, in whatever language either is written. A summary is
 * about its source when it shares something with it — content terms (as terms, with another
 * English inflection such as `travellers` ~ `traveller`, or from 5 characters on inside a source
 * word), or comparables (`comparable-terms.ts`: ids, numbers, code identifiers, acronyms, which
 * hold across languages and scripts: `KTX 105` ~ `KTX 105편`) — and is not mostly made of
 * service words (`SERVICE_WORDS`: "request", "quota", "retry"...), which is how an error reply
 * nobody listed reads. A summary that shares nothing is judged by what could be compared: it is
 * not about the conversation when it names ids, long numbers, identifiers or (in the Latin script,
 * outside German) capitalised names the conversation does not hold, or when it is largely service
 * words, or when it speaks to its reader (`readsAsReply`: "we", "you", "please", "later"); otherwise it passes — a paraphrase, or a summary in another language whose conversation
 * offers nothing to compare. Weak terms ("error", "while") never count as shared; one- or
 * two-character Latin terms and the extractive format's labels are left out on both sides. A
 * source with fewer than 3 evidence terms ("hi" / "hello!") is too small to judge. A summary
 * without one content term or comparable is grounded only in the extractive format.
 */
export function checkGrounding(summary: string, source: SummarySource): Grounding {
  if (source.evidence < MIN_SOURCE_TERMS) return { grounded: true };
  const terms = termsOf(summary);
  const comparables = comparablesOf(summary);
  const notAbout = (shared: number): Grounding => ({
    grounded: false,
    reason: `is not about the conversation (${shared} of its ${terms.size} terms occur there)`,
  });
  if (![...terms].some(isEvidence) && comparables.specific.length === 0) {
    // The extractive format with nothing but counts: its source had nothing to quote.
    if (summary.includes(SUMMARY_HEADER_TITLE)) return { grounded: true };
    if (![...comparables.terms].some((t) => holdsComparable(source.comparables, t))) {
      return { grounded: false, reason: 'has no names, numbers or content words' };
    }
  }
  let shared = 0;
  let service = 0;
  for (const term of terms) {
    const held = sourceHolds(source, term);
    // A service word is a sign unless the conversation uses it too ("permission denied"); then
    // it is its topic, but too common to show the summary is about it.
    if (SERVICE_WORDS.has(term)) {
      if (!held) service++;
    } else if (isEvidence(term) && held) shared++;
  }
  for (const term of comparables.terms) {
    if (term.length >= 2 && !terms.has(term) && holdsComparable(source.comparables, term)) shared++;
  }
  // The extractive format quotes the conversation: every term of it there is grounded, even a
  // service word the conversation itself used ("Can't wait!").
  if (
    shared === 0 &&
    terms.size > 0 &&
    summary.includes(SUMMARY_HEADER_TITLE) &&
    [...terms].every((term) => sourceHolds(source, term))
  ) {
    return { grounded: true };
  }
  const serviceShare = terms.size === 0 ? 0 : service / terms.size;
  if (declinesInFirstPerson(summary) && !summary.includes(SUMMARY_HEADER_TITLE)) {
    return { grounded: false, reason: 'declines in the first person: it reads as a refusal' };
  }
  if (shared > 0) {
    // One service word ("Service Wednesday 8:00") says nothing; two or more in a large share do.
    return service >= 2 && serviceShare >= MAX_SERVICE_SHARE
      ? notAbout(shared)
      : { grounded: true };
  }
  const foreignNames = source.latin
    ? comparables.names.filter((n) => !holdsName(source.comparables, n))
    : [];
  const foreignIds = comparables.specific.filter((t) => !holdsComparable(source.comparables, t));
  if (foreignNames.length + foreignIds.length > 0) return notAbout(0);
  if (serviceShare >= MAX_SERVICE_SHARE_UNSHARED) return notAbout(0);
  // The extractive format quotes the conversation's own lines ("First: How are you?").
  if (readsAsReply(summary) && !summary.includes(SUMMARY_HEADER_TITLE)) return notAbout(0);
  return { grounded: true, unshared: true } as Grounding;
}
