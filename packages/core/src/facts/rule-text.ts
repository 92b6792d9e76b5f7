/**
 * The rules extractor's view of a user message: sentences of word tokens, with quoted text, code
 * and pasted error lines left out. One pass over at most `maxChars` characters, no regular
 * expression over the whole text, so the work is linear in the text it reads.
 */

export interface Token {
  /** Lower case, apostrophes unified, contractions and elisions expanded (`i'm` -> `i`, `am`). */
  norm: string;
  /** The user's own spelling (a contraction's parts share it). */
  raw: string;
  start: number;
  end: number;
  /** Starts with an upper-case letter, or with a letter of a script without case. */
  cap: boolean;
  /** A clause boundary (`,` `:` `(` a dash, a quotation left out): values stop here. */
  sep?: true;
}

export interface Sentence {
  tokens: Token[];
  /** Ends with `?` (or began with `¿`). */
  question: boolean;
  /** The sentence as written, for the sentence-level guards. */
  text: string;
  /** Every letter of the sentence is lower case (a writer who does not capitalize). */
  lowerOnly: boolean;
}

const SENTENCE_END = new Set(['.', '!', '?', ';', '…', '。', '！', '？', '\n']);
const CLAUSE_SEP = new Set([',', ':', '(', ')', '[', ']', '—', '–', '、', '，', '：']);
const QUOTES: Record<string, string> = {
  '"': '"',
  '“': '”',
  '„': '“',
  '«': '»',
  '`': '`',
  '”': '”',
};
const APOSTROPHES = new Set(["'", '’', '‘', 'ʼ']);
/** Words after which `.` does not end a sentence. */
const ABBREVIATIONS = new Set([
  'st',
  'dr',
  'mr',
  'mrs',
  'ms',
  'mt',
  'ft',
  'jr',
  'sr',
  'prof',
  'sta',
  'sto',
  'av',
]);

const CONTRACTIONS: Record<string, string[]> = {
  "i'm": ['i', 'am'],
  "i've": ['i', 'have'],
  "i'd": ['i', 'would'],
  "i'll": ['i', 'will'],
  "we're": ['we', 'are'],
  "we've": ['we', 'have'],
  "don't": ['do', 'not'],
  dont: ['do', 'not'],
  "doesn't": ['does', 'not'],
  "didn't": ['did', 'not'],
  "can't": ['can', 'not'],
  cannot: ['can', 'not'],
  "won't": ['will', 'not'],
  "isn't": ['is', 'not'],
  "aren't": ['are', 'not'],
  "wasn't": ['was', 'not'],
  "haven't": ['have', 'not'],
  "it's": ['it', 'is'],
  "that's": ['that', 'is'],
  "let's": ['let', 'us'],
  "name's": ['name', 'is'],
};
/** French elisions: `j'habite` -> `je habite`. */
const ELISIONS: Record<string, string> = {
  "j'": 'je',
  "m'": 'me',
  "t'": 'te',
  "n'": 'ne',
  "l'": 'le',
  "d'": 'de',
  "qu'": 'que',
  "s'": 'se',
  "c'": 'ce',
};
/** Pronouns after a hyphen that are words of their own: `appelle-moi`, `chamo-me`. */
const CLITICS = new Set([
  'me',
  'te',
  'se',
  'moi',
  'toi',
  'nos',
  'vous',
  'nous',
  'tu',
  'il',
  'lo',
  'la',
  'le',
  'lhe',
]);

const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const LETTER = /\p{L}/u;
const OTHER_APOSTROPHES = /[’‘ʼ]/;
const OTHER_APOSTROPHES_ALL = /[’‘ʼ]/g;
/** ASCII letters and digits without a regular expression; the rest by Unicode class. */
const isWordChar = (c: string) => {
  const code = c.charCodeAt(0);
  if (code < 128)
    return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
  return WORD_CHAR.test(c);
};

/** Lines that are code, a stack trace or a pasted error: nobody states a fact there. */
function isCodeOrErrorLine(line: string): boolean {
  const t = line.trim();
  if (t.length === 0) return false;
  if (t.startsWith('>') || t.startsWith('$ ') || t.startsWith('#!') || t.startsWith('//')) {
    return true;
  }
  if (t.endsWith(';') || t.endsWith('{') || t.endsWith('}') || t.startsWith('at ')) return true;
  for (const mark of ['=>', '();', '==', '</', '/>', '{', '}', 'console.', 'print(', 'def ']) {
    if (t.includes(mark)) return true;
  }
  for (const mark of ['Error:', 'Exception', 'Traceback', 'ERROR', 'FATAL', 'errno']) {
    if (t.includes(mark)) return true;
  }
  return false;
}

function pushWord(tokens: Token[], word: string, start: number) {
  const raw = word;
  let lower = word.toLowerCase();
  if (OTHER_APOSTROPHES.test(lower)) lower = lower.replace(OTHER_APOSTROPHES_ALL, "'");
  const first = raw[0] ?? '';
  const firstLower = first.toLowerCase();
  const cap = first !== firstLower || (firstLower === first.toUpperCase() && LETTER.test(first));
  const end = start + raw.length;
  // Own keys only: `constructor` is a word, not a contraction.
  const parts = Object.hasOwn(CONTRACTIONS, lower) ? CONTRACTIONS[lower] : undefined;
  if (parts !== undefined) {
    for (const norm of parts) tokens.push({ norm, raw, start, end, cap });
    return;
  }
  const apostrophe = lower.indexOf("'");
  if (apostrophe > 0 && apostrophe < lower.length - 1) {
    const head = lower.slice(0, apostrophe + 1);
    const elided = Object.hasOwn(ELISIONS, head) ? ELISIONS[head] : undefined;
    if (elided !== undefined) {
      tokens.push({
        norm: elided,
        raw: raw.slice(0, apostrophe + 1),
        start,
        end: start + apostrophe + 1,
        cap: false,
      });
      const rest = raw.slice(apostrophe + 1);
      pushWord(tokens, rest, start + apostrophe + 1);
      return;
    }
    if (lower.endsWith("'s")) {
      const base = raw.slice(0, -2);
      tokens.push({ norm: lower.slice(0, -2), raw: base, start, end: start + base.length, cap });
      tokens.push({ norm: "'s", raw: raw.slice(-2), start: end - 2, end, cap: false });
      return;
    }
  }
  const hyphen = lower.lastIndexOf('-');
  if (hyphen > 0 && CLITICS.has(lower.slice(hyphen + 1))) {
    pushWord(tokens, raw.slice(0, hyphen), start);
    const clitic = raw.slice(hyphen + 1);
    tokens.push({
      norm: clitic.toLowerCase(),
      raw: clitic,
      start: start + hyphen + 1,
      end,
      cap: false,
    });
    return;
  }
  tokens.push({ norm: lower, raw, start, end, cap });
}

/** Splits `text` (first `maxChars` characters) into sentences of tokens. */
export function readSentences(text: string, maxChars: number): Sentence[] {
  const src = text.length > maxChars ? text.slice(0, maxChars) : text;
  const sentences: Sentence[] = [];
  let tokens: Token[] = [];
  let sentenceStart = 0;
  let inFence = false;
  const flush = (end: number, question: boolean) => {
    if (tokens.length > 0) {
      const body = src.slice(sentenceStart, end);
      sentences.push({ tokens, question, text: body, lowerOnly: body === body.toLowerCase() });
    }
    tokens = [];
    sentenceStart = end + 1;
  };
  let lineStart = 0;
  while (lineStart <= src.length) {
    let lineEnd = src.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = src.length;
    const line = src.slice(lineStart, lineEnd);
    const fence = line.trimStart().startsWith('```');
    if (fence) inFence = !inFence;
    if (fence || inFence || isCodeOrErrorLine(line)) {
      flush(lineStart, false);
      sentenceStart = lineEnd + 1;
    } else {
      readLine(src, lineStart, lineEnd);
      flush(lineEnd, false);
    }
    lineStart = lineEnd + 1;
  }
  return sentences;

  function readLine(s: string, from: number, to: number) {
    let i = from;
    let questionOpen = false;
    const line = s.slice(from, to);
    while (i < to) {
      const c = s[i] as string;
      if (isWordChar(c)) {
        let j = i + 1;
        while (j < to) {
          const d = s[j] as string;
          if (isWordChar(d)) j++;
          else if (
            (APOSTROPHES.has(d) || d === '-' || d === '&') &&
            j + 1 < to &&
            isWordChar(s[j + 1] as string)
          )
            j += 2;
          else if (d === '.' && j + 1 < to && LETTER.test(s[j + 1] as string) && s[j + 2] === '.')
            j += 2;
          else break;
        }
        pushWord(tokens, s.slice(i, j), i);
        i = j;
        continue;
      }
      const close = QUOTES[c];
      if (close !== undefined) {
        // A quotation is someone's words (or code): left out, as a clause boundary.
        let j = line.indexOf(close, i + 1 - from);
        j = j === -1 ? to : j + from;
        tokens.push({ norm: '"', raw: c, start: i, end: j, cap: false, sep: true });
        i = j + 1;
        continue;
      }
      if (c === '¿') questionOpen = true;
      if (SENTENCE_END.has(c)) {
        const prev = tokens.at(-1);
        const abbreviation =
          c === '.' &&
          prev !== undefined &&
          prev.end === i &&
          (ABBREVIATIONS.has(prev.norm) || (/^\d{1,2}$/.test(prev.norm) && s[i + 1] === ' '));
        if (!abbreviation) {
          flush(i, c === '?' || c === '？' || questionOpen);
          questionOpen = false;
        }
      } else if (CLAUSE_SEP.has(c) || (c === '-' && s[i - 1] === ' ' && s[i + 1] === ' ')) {
        tokens.push({ norm: c, raw: c, start: i, end: i + 1, cap: false, sep: true });
      }
      i++;
    }
  }
}
