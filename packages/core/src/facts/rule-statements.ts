import { contactPreference } from './rule-contact.ts';
import { type MatchContext, matchAt, readSignIn, readValue } from './rule-match.ts';
import { type Candidate, compilePatterns, type PatternIndex } from './rule-pattern.ts';
import { DE_PATTERNS } from './rule-patterns-de.ts';
import { EN_PATTERNS } from './rule-patterns-en.ts';
import { ES_PATTERNS } from './rule-patterns-es.ts';
import { FR_PATTERNS } from './rule-patterns-fr.ts';
import { PT_PATTERNS } from './rule-patterns-pt.ts';
import { readSentences, type Sentence, type Token } from './rule-text.ts';
import {
  CONDITIONAL,
  CONJUNCTIONS,
  GREETING_PHRASES,
  GREETINGS,
  MARKER_PHRASES,
  MARKERS,
  META,
  NOT_SERIOUS,
  SAYING,
  SUBORDINATORS,
  TIME_LEAD,
} from './rule-words.ts';

/**
 * Finds the explicit self-statements of one user message: for every place a statement may begin
 * (a sentence, a clause after `,` or `:`, a conjunction), discourse markers skipped, the patterns
 * that start there. Questions, conditionals, jokes, quotations and code never state anything.
 */

const INDEX: PatternIndex = compilePatterns([
  ...EN_PATTERNS,
  ...DE_PATTERNS,
  ...FR_PATTERNS,
  ...ES_PATTERNS,
  ...PT_PATTERNS,
]);

/** The name fact of a sign-in in the language of its word (`Jonas hier`, `Lucía aquí`). */
const SIGN_IN_TEXT: Record<string, string> = {
  hier: 'Heißt',
  ici: "S'appelle",
  aquí: 'Se llama',
  aqui: 'Chama-se',
};

/** Skips discourse markers from `i`; returns where the statement starts and if one was a greeting. */
function skipMarkers(tokens: readonly Token[], i: number): { at: number; greeting: boolean } {
  let at = i;
  let greeting = false;
  for (let n = 0; n < 4 && at < tokens.length; n++) {
    const t = tokens[at] as Token;
    if (t.sep === true && t.norm !== '"') {
      at++;
      continue;
    }
    const phrase = MARKER_PHRASES.find((p) => p.every((w, k) => tokens[at + k]?.norm === w));
    if (phrase !== undefined) {
      if (GREETING_PHRASES.has(phrase.join(' '))) greeting = true;
      at += phrase.length;
    } else if (
      MARKERS.has(t.norm) &&
      tokens[at + 1]?.norm !== 'is' &&
      tokens[at + 1]?.norm !== "'s"
    ) {
      if (GREETINGS.has(t.norm)) greeting = true;
      at++;
    } else break;
  }
  return { at, greeting };
}

/** Token positions where a statement may begin. */
function starts(tokens: readonly Token[]): number[] {
  const out = [0];
  // `Seit letztem Sommer wohne ich in Freiburg`, `Desde marzo vivo en ...`: a fronted time.
  const timeLead = TIME_LEAD.has(tokens[0]?.norm ?? '');
  for (let k = 0; k < tokens.length - 1; k++) {
    const t = tokens[k] as Token;
    if (t.sep === true) {
      if (t.norm === ':' && SAYING.has(tokens[k - 1]?.norm ?? '')) continue;
      if (t.norm !== '"') out.push(k + 1);
    } else if ((CONJUNCTIONS.has(t.norm) && k > 0) || SUBORDINATORS.has(t.norm)) out.push(k + 1);
    else if (timeLead && k < 4) out.push(k + 1);
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

/** The statement may drop its subject here: it begins the sentence or follows a conjunction. */
function isClauseStart(tokens: readonly Token[], start: number): boolean {
  if (start === 0 || skipMarkers(tokens, 0).at >= start) return true;
  const before = tokens[start - 1]?.norm ?? '';
  return CONJUNCTIONS.has(before) || SUBORDINATORS.has(before);
}

/** Index of the first word that makes the rest of the sentence hypothetical (`if`, `wenn`). */
function firstConditional(tokens: readonly Token[]): number {
  for (let k = 0; k < tokens.length; k++) {
    const norm = (tokens[k] as Token).norm;
    if (CONDITIONAL.has(norm) || (norm === 'se' && tokens[k + 1]?.norm === 'eu')) return k;
  }
  return tokens.length;
}

const notSerious = (text: string) => {
  const lower = text.toLowerCase();
  return NOT_SERIOUS.some((m) => lower.includes(m));
};

function sentenceCandidates(
  s: Sentence,
  src: string,
  greeting: boolean,
  first: boolean,
): Candidate[] {
  if (notSerious(s.text)) return [];
  const { tokens } = s;
  let lastSep = -1;
  for (let k = 0; k < tokens.length; k++) if (tokens[k]?.sep === true) lastSep = k;
  const out: Candidate[] = [];
  let sentenceGreeting = greeting;
  const conditional = firstConditional(tokens);
  const clauseStarts = starts(tokens);
  const signedIn = new Set<number>();
  for (const start of clauseStarts) {
    if (start > conditional) break;
    const { at, greeting: g } = skipMarkers(tokens, start);
    if (g) sentenceGreeting = true;
    const ctx: MatchContext = {
      src,
      tokens,
      lowerOnly: s.lowerOnly,
      afterGreeting: sentenceGreeting,
      inQuestion: s.question && at > lastSep,
      clauseStart: isClauseStart(tokens, start),
      opening: sentenceGreeting || (first && start === 0),
    };
    const signIn = signedIn.has(at) ? undefined : readSignIn(ctx, at);
    signedIn.add(at);
    if (signIn !== undefined) {
      const lead = Object.hasOwn(SIGN_IN_TEXT, signIn.word) ? SIGN_IN_TEXT[signIn.word] : 'Name is';
      const text = `${lead} ${signIn.name}.`;
      out.push({ kind: 'set', about: 'name', text, value: signIn.name });
    }
    out.push(...candidatesAt(ctx, at));
  }
  if (!s.question && conditional === tokens.length) {
    const contact = contactPreference(
      tokens,
      clauseStarts.map((k) => skipMarkers(tokens, k).at),
    );
    if (contact !== undefined) out.push(contact);
  }
  return out;
}

function candidatesAt(ctx: MatchContext, at: number, nested = false): Candidate[] {
  const out: Candidate[] = [];
  const longest = new Map<object, ReturnType<typeof matchAt>[number]>();
  for (const m of matchAt(INDEX, ctx, at)) {
    const prev = longest.get(m.pattern);
    if (prev === undefined || m.from > prev.from) longest.set(m.pattern, m);
  }
  for (const { pattern, match, from, to } of longest.values()) {
    if (pattern.slot === 'rest') {
      // `remember that I live in Porto` is the statement itself; `forget that ...` removes it.
      if (nested) continue;
      const inner = candidatesAt({ ...ctx, inQuestion: false }, from, true).filter(
        (c) => c.kind === 'set',
      );
      if (pattern.innerOnly === true) {
        out.push(...inner);
        continue;
      }
      if (pattern.forget === true) {
        if (inner.length > 0) {
          for (const c of inner)
            if (c.kind === 'set') out.push({ kind: 'retract', about: c.about, value: c.value });
        } else
          out.push({
            kind: 'forget',
            value: match.value,
            tokens: ctx.tokens.slice(from, to),
            src: ctx.src,
          });
        continue;
      }
      if (inner.length > 0) {
        out.push(...inner);
        continue;
      }
    }
    const c = pattern.build(match);
    if (c === undefined) continue;
    out.push(c);
    const next = ctx.tokens[to];
    const after =
      next === undefined ? undefined : pattern.after?.find((a) => a.preps.has(next.norm));
    if (after !== undefined && next !== undefined) {
      const more = readValue(
        { slot: after.slot, jobs: pattern.jobs ?? new Set<string>() },
        ctx.tokens,
        to + 1,
        ctx.lowerOnly,
      );
      if (more !== undefined && more.to > more.from) {
        const first = ctx.tokens[more.from] as Token;
        const last = ctx.tokens[more.to - 1] as Token;
        out.push(after.build(ctx.src.slice(first.start, last.end), next.raw));
      }
    }
  }
  return out;
}

/** The statements of one user message, in order (at most `maxChars` characters read). */
export function findStatements(text: string, maxChars: number): Candidate[] {
  const src = text.length > maxChars ? text.slice(0, maxChars) : text;
  const lower = src.toLowerCase();
  if (META.some((m) => lower.includes(m))) return [];
  const sentences = readSentences(src, maxChars);
  // A short message with a joke marker (`... lol`) is a joke as a whole.
  if (sentences.length <= 3 && NOT_SERIOUS.some((m) => lower.includes(m))) return [];
  const first = sentences[0]?.tokens[0]?.norm;
  const opensWithGreeting =
    first !== undefined &&
    (GREETINGS.has(first) ||
      MARKER_PHRASES.some((p) => GREETING_PHRASES.has(p.join(' ')) && p[0] === first));
  const out: Candidate[] = [];
  sentences.forEach((s, n) => {
    out.push(...sentenceCandidates(s, src, opensWithGreeting && n <= 1, n === 0));
  });
  return out;
}
