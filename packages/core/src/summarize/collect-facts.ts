import { contentWords, stripChitChat } from './chit-chat.ts';
import { clip } from './clip-text.ts';
import { properNouns } from './count-entities.ts';
import { type EarlierLine, readEarlierLine } from './earlier-line.ts';
import { createRestatementIndex, statedWords } from './restatements.ts';
import { scoreSentence, splitSentences, TIER } from './score-sentence.ts';
import { type Speakers, speakersOf } from './speakers.ts';
import type { TranscriptEntry } from './transcript-entry.ts';

/** A candidate line of an extractive summary. */
export interface Fact {
  /** The line as written into the summary (`- Lena: ...`, `- User: ...`). */
  line: string;
  /** Chronological position; earlier summaries' lines come first. */
  order: number;
  score: number;
  /** Carried over from an earlier summary. */
  previous: boolean;
}

const MAX_SENTENCE_CHARS = 240;
const MAX_ERROR_CHARS = 200;
const MAX_RESULT_CHARS = 120;
const MAX_ARGS_CHARS = 60;
const ROLE_LABELS = { user: 'User', assistant: 'Assistant', system: 'System' } as const;
/** A sentence with this many content words is a candidate even without a name or a cue. */
const MIN_CONTENT_WORDS = 3;
const QUESTION = /\?\W*$/;
const ONE_WORD = /^\W*[\p{L}'’-]+\W*$/u;
const DIGIT = /\p{N}/u;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/** Who said a sentence, as far as the summary shows it. */
interface Speaker {
  /** `Lena: `, `User: `, or nothing. */
  prefix: string;
  /** Part of the duplicate key: the same words from two people are two facts. */
  key: string;
  person: boolean;
}

const NOBODY: Speaker = { prefix: '', key: '', person: false };

/**
 * Collects the candidate lines of an extractive summary: `earlierLines` (from earlier summaries)
 * first, then the sentences of the transcript that carry a fact, and one line per tool result
 * (`- tool(args) → ok: ...` / `→ error: ...`). Greetings, reactions and filler are left out, of
 * earlier lines too; a sentence that states a name, number, id, date, decision, error, plan,
 * preference or change of state is kept, attributed to its speaker (`- Lena: ...`) when named.
 * The same sentence or fact is kept once, the first time: the same words, or a restatement by the
 * same speaker whose words all occur in a fact already kept.
 */
export function collectFacts(
  entries: readonly TranscriptEntry[],
  earlierLines: readonly string[],
): Fact[] {
  const speakers = speakersOf(entries);
  const names = properNouns(textsOf(entries, earlierLines));
  for (const name of speakers.names) names.add(name);
  const facts: Fact[] = [];
  const seen = new Set<string>();
  const isSpeaker = speakers.isSpeaker;
  const restatements = createRestatementIndex();

  const addSentence = (raw: string, who: Speaker, previous: boolean) => {
    const text = clip(stripChitChat(raw, isSpeaker), MAX_SENTENCE_CHARS);
    // Judged once: the same words again (kept or dropped) add nothing.
    const key = `${who.key}|${text.toLowerCase().replace(NOT_WORD, ' ').trim()}`;
    if (seen.has(key)) return;
    seen.add(key);
    const content = contentWords(text, isSpeaker);
    // Chit-chat: no content words, a lone word ("Mell!", "Italy!"), or too few words without
    // anything that makes them a fact.
    if ((content === 0 || ONE_WORD.test(text)) && !DIGIT.test(text)) return;
    const { tier, entities, cues, score } = scoreSentence(text, TIER.plain, {
      person: who.person,
      names,
    });
    // A question's cues ("How'd they like it?") ask about a fact rather than state it.
    const facty = entities > 0 || tier > TIER.plain || (cues > 0 && !QUESTION.test(text));
    if (!facty && content < MIN_CONTENT_WORDS) return;
    // A restatement of a fact the same speaker stated before (`restatements.ts`): nothing new.
    if (restatements.restates(who.key, statedWords(text))) return;
    facts.push({ line: `- ${who.prefix}${text}`, order: facts.length, score, previous });
  };
  const addTool = (line: string, tier: number, previous: boolean, key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const { score } = scoreSentence(line, tier);
    facts.push({ line: `- ${line}`, order: facts.length, score, previous });
  };

  for (const raw of earlierLines) {
    const earlier = readEarlierLine(raw, speakers);
    if (earlier.kind === 'tool') addTool(earlier.text, earlier.tier, true, earlier.key);
    else for (const s of earlier.sentences) addSentence(s, speakerOf(earlier, speakers), true);
  }

  const pendingArgs = new Map<string, string[]>();
  for (const entry of entries) {
    switch (entry.kind) {
      case 'message': {
        const who = messageSpeaker(entry, speakers);
        for (const s of splitSentences(entry.text)) addSentence(s, who, false);
        for (const call of entry.toolCalls) {
          const queue = pendingArgs.get(call.name) ?? [];
          queue.push(call.arguments);
          pendingArgs.set(call.name, queue);
        }
        break;
      }
      case 'tool-result': {
        const args = pendingArgs.get(entry.toolName)?.shift();
        const call = args ? `${entry.toolName}(${clip(args, MAX_ARGS_CHARS)})` : entry.toolName;
        if (entry.isError) {
          // The same error again (other arguments) adds nothing; the header counts every error.
          const error = `error: ${clip(entry.text, MAX_ERROR_CHARS) || 'failed'}`;
          addTool(`${call} → ${error}`, TIER.toolError, false, `${entry.toolName} → ${error}`);
        } else {
          const first = splitSentences(entry.text.slice(0, 4 * MAX_RESULT_CHARS))[0];
          const ok = first === undefined ? 'ok' : `ok: ${clip(first, MAX_RESULT_CHARS)}`;
          const line = `${call} → ${ok}`;
          addTool(line, TIER.tool, false, line);
        }
        break;
      }
      case 'text':
        for (const s of splitSentences(entry.text)) addSentence(s, NOBODY, false);
        break;
      case 'summary':
        break;
    }
  }
  return facts;
}

function* textsOf(entries: readonly TranscriptEntry[], earlierLines: readonly string[]) {
  yield* earlierLines;
  for (const entry of entries) if (entry.kind !== 'summary') yield entry.text;
}

function messageSpeaker(
  entry: Extract<TranscriptEntry, { kind: 'message' }>,
  speakers: Speakers,
): Speaker {
  const label = entry.name ?? ROLE_LABELS[entry.role];
  const person = entry.role === 'user' || (entry.name !== undefined && !speakers.agentic);
  return { prefix: `${label}: `, key: label.toLowerCase(), person };
}

function speakerOf(line: Extract<EarlierLine, { kind: 'sentences' }>, speakers: Speakers): Speaker {
  if (line.speaker === undefined) return NOBODY;
  const role = line.role ?? speakers.roleOf(line.speaker);
  const person = role === 'user' || (line.named && !speakers.agentic);
  return { prefix: `${line.speaker}: `, key: line.speaker.toLowerCase(), person };
}
