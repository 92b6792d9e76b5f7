/**
 * What a summary and its conversation can share whatever languages they are written in: ids,
 * numbers, code identifiers and acronyms (`AF-1042`, `10`, `withRetry`, `KTX`), read as runs of
 * ASCII letters and digits, so `105편` still holds `105` and `ל-IL-9900` holds `il-9900`;
 * and, between texts in the Latin script, capitalised names (`Lisbon`). No transliteration:
 * `Tanaka` is not compared with `田中`.
 */

/** Runs of ASCII letters and digits, joined by `-`, `_`, `.`, `/`, `#` or `:` inside. */
const RUN = /[A-Za-z0-9]+(?:[-_./#:][A-Za-z0-9]+)*/g;
const DIGITS = /\d+/g;
const HAS_DIGIT = /\d/;
/** `withRetry`, `row.get`, `cliente_id`, `useMemo`: code identifiers. */
const IDENTIFIER = /[a-z][A-Z]|_[A-Za-z]|[a-z]\.[a-z]/;
/** Two or more capitals (`KTX`, `CET`, `GBK`). */
const ACRONYM = /^[A-Z]{2,}$/;
/** A capitalised word after a lowercase word, comma or digit: not a sentence's first word. */
const NAME = /(?<=[\p{Ll}\p{N},;]\s+)\p{Lu}\p{Ll}{2,}/gu;
/** German capitalises every noun: in German, capitals name nothing in particular. */
const GERMAN =
  /(?<!\p{L})(?:der|die|das|und|ist|nicht|wurde|mit|für|auf|dem|den|eine?)(?!\p{L})/giu;

export interface Comparables {
  /** Ids, numbers, identifiers and acronyms, lowercased, whole and split into digit runs. */
  readonly terms: ReadonlySet<string>;
  /** The ones that can only be there if the conversation holds them: ids, 3+ digit numbers, identifiers. */
  readonly specific: readonly string[];
  /** Capitalised names (lowercased), unless the text is German. */
  readonly names: readonly string[];
}

/** The comparables of `text` (see the file comment). */
export function comparablesOf(text: string): Comparables {
  const plain = /[^\x20-\x7e\s]/.test(text) ? text.normalize('NFKC') : text;
  const terms = new Set<string>();
  const specific: string[] = [];
  for (const [run] of plain.matchAll(RUN)) {
    const digit = HAS_DIGIT.test(run);
    const identifier = IDENTIFIER.test(run);
    if (!digit && !identifier && !ACRONYM.test(run)) continue;
    const term = run.toLowerCase();
    terms.add(term);
    if (digit) for (const [d] of run.matchAll(DIGITS)) terms.add(d);
    const digits = run.replace(/\D/g, '').length;
    if (identifier || (digit && (digits >= 3 || /[A-Za-z]/.test(run)))) specific.push(term);
  }
  const german = (plain.match(GERMAN)?.length ?? 0) >= 2;
  const names = german ? [] : [...plain.matchAll(NAME)].map(([n]) => n.toLowerCase());
  return { terms, specific, names };
}

/** Comparables of a conversation, prepared once for every summary checked against it. */
export interface SourceComparables {
  readonly terms: ReadonlySet<string>;
  /** The conversation lowercased, for names and ids written inside longer words. */
  readonly lowered: string;
}

export function sourceComparables(text: string): SourceComparables {
  const plain = /[^\x20-\x7e\s]/.test(text) ? text.normalize('NFKC') : text;
  return { terms: comparablesOf(plain).terms, lowered: plain.toLowerCase() };
}

/** True when the conversation holds `term`: whole, inside a word, or (an id) by its digits. */
export function holdsComparable(source: SourceComparables, term: string): boolean {
  if (source.terms.has(term) || (term.length >= 3 && source.lowered.includes(term))) return true;
  const digits = term.match(DIGITS);
  return (
    digits !== null &&
    digits.join('').length >= 3 &&
    digits.every((d) => d.length < 2 || source.terms.has(d))
  );
}

/** True when the conversation holds `name`, or a word starting with its first 5 letters. */
export function holdsName(source: SourceComparables, name: string): boolean {
  return source.lowered.includes(name.length > 5 ? name.slice(0, 5) : name);
}
