import { bareWord } from './count-entities.ts';
import type { TranscriptEntry } from './transcript-entry.ts';

type SpeakerRole = 'user' | 'assistant' | 'system';

/** The named people of a transcript (the `name` of its messages). */
export interface Speakers {
  /** Their names as written (`Lena`, `Lena Park`) and each word of them. */
  readonly names: ReadonlySet<string>;
  /** The transcript has tool calls or results: an agent's, not a conversation between people. */
  readonly agentic: boolean;
  /** Whether a capitalised word is a speaker's name or its start (`Mel` for `Melanie`). */
  readonly isSpeaker: (word: string) => boolean;
  /** The role a named speaker's messages have. */
  readonly roleOf: (name: string) => SpeakerRole | undefined;
}

/** More names than this are not searched for shortened forms (keeps `isSpeaker` cheap). */
const MAX_NAME_WORDS = 64;
/** A shortened name (`Mel`) has at least this many letters. */
const MIN_SHORT_NAME = 2;

export function speakersOf(entries: readonly TranscriptEntry[]): Speakers {
  const roles = new Map<string, SpeakerRole>();
  const names = new Set<string>();
  const words = new Set<string>();
  let agentic = false;
  for (const entry of entries) {
    if (entry.kind === 'tool-result') agentic = true;
    if (entry.kind !== 'message') continue;
    if (entry.toolCalls.length > 0) agentic = true;
    const name = entry.name?.trim();
    if (!name || roles.has(name.toLowerCase())) continue;
    roles.set(name.toLowerCase(), entry.role);
    names.add(name);
    for (const word of name.split(/\s+/)) {
      names.add(word);
      words.add(word.toLowerCase());
    }
  }
  const shortened = [...words].slice(0, MAX_NAME_WORDS);
  const isSpeaker = (word: string) => {
    const w = bareWord(word.replaceAll('’', "'")).toLowerCase();
    if (words.has(w)) return true;
    return w.length >= MIN_SHORT_NAME && shortened.some((name) => name.startsWith(w));
  };
  return { names, agentic, isSpeaker, roleOf: (name) => roles.get(name.toLowerCase()) };
}
