import { analyzeText, normalizeText } from '../../src/knowledge/analyze-text.ts';
import { SUMMARY_HEADER_TITLE } from '../../src/summarize/summary-header.ts';

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
/** Shared terms a summary needs (one when it has at most 3 terms)... */
const MIN_SHARED_TERMS = 2;
/** ...and at least this share of its distinct terms (a quarter). */
const MIN_SHARED_SHARE = 0.25;
/** A summary's script below this share of the source's terms: a summary in another language. */
const MIN_SCRIPT_SHARE = 0.2;
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
  return { text, terms, evidence, normalized, stems, scripts };
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

/** The script most of `terms` are written in, if any has letters. */
function dominantScript(terms: Iterable<string>): string | undefined {
  const counts = new Map<string, number>();
  for (const term of terms) {
    const script = scriptOf(term);
    if (script !== undefined) counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * Checks that `summary` is about `source`: of its distinct content terms (the extractive
 * summary's format labels left out) at least two (one when it has at most 3) and at least a quarter
 * must occur in the source — as terms, with another English inflection (`travellers` ~
 * `traveller`, `visited` ~ `visit`), or, from 5 characters on, inside a source word. Weak terms ("error",
 * "request", "while") never count as shared; one- or two-character Latin terms ("a", "42") and
 * the extractive format's labels are left out on both sides.
 * A summary in another script than most of its source (an English summary of a Japanese chat)
 * needs one shared name, number or id. A source with fewer than 3 such terms ("hi" / "hello!")
 * is too small to judge: every summary is grounded in it. A summary without one such term is
 * grounded only in the extractive format (its header counts, when there was nothing to quote).
 */
export function checkGrounding(summary: string, source: SummarySource): Grounding {
  if (source.evidence < MIN_SOURCE_TERMS) return { grounded: true };
  const terms = termsOf(summary);
  if (![...terms].some(isEvidence)) {
    // The extractive format with nothing but counts: its source had nothing to quote.
    if (summary.includes(SUMMARY_HEADER_TITLE)) return { grounded: true };
    return { grounded: false, reason: 'has no names, numbers or content words' };
  }
  let shared = 0;
  for (const term of terms) {
    if (isEvidence(term) && sourceHolds(source, term)) shared++;
  }
  const script = dominantScript(terms);
  const sourceTerms = [...source.scripts.values()].reduce((a, b) => a + b, 0);
  const foreign =
    script !== undefined && (source.scripts.get(script) ?? 0) < sourceTerms * MIN_SCRIPT_SHARE;
  const enough = foreign
    ? shared >= 1
    : shared >= Math.min(MIN_SHARED_TERMS, Math.ceil(terms.size / 3)) &&
      shared >= terms.size * MIN_SHARED_SHARE;
  if (enough) return { grounded: true };
  return {
    grounded: false,
    reason: `is not about the conversation (${shared} of its ${terms.size} terms occur there)`,
  };
}
