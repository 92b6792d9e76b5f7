import { readdirSync, readFileSync } from 'node:fs';
import type { Message } from '../../../model/message.ts';
import { renderTranscript } from '../../render-transcript.ts';

/**
 * The summary gate's corpus (written for mem; see README.md beside it): conversations, legitimate
 * summaries of them and error or refusal texts a provider could return instead, in many
 * languages, in three sets (see `GateCorpusSet`).
 */

export type LegitKind =
  | 'plain'
  | 'terse'
  | 'paraphrase'
  | 'cross-language'
  | 'numbers-only'
  | 'code-only'
  | 'apology-then-content'
  | 'greetings';

export type ErrorKind =
  | 'error-message'
  | 'refusal'
  | 'refusal-naming-id'
  | 'policy-block'
  | 'quotes-conversation'
  | 'json-error'
  | 'html-page'
  | 'proxy-error'
  | 'sdk-error';

/** One text to judge against the transcript of its conversation. */
export interface GateCase<K extends string> {
  /** `<conversation>#<n>`: where the case is in the corpus. */
  id: string;
  /** The language of the conversation. */
  conversationLanguage: string;
  /** The language of `text`. */
  language: string;
  kind: K;
  /** The conversation as a summarizer sees it (`renderTranscript`). */
  transcript: string;
  text: string;
}

export interface GateCorpus {
  legit: GateCase<LegitKind>[];
  errors: GateCase<ErrorKind>[];
}

interface CorpusFile {
  conversations: Record<string, string[]>;
  summaries: { conversation: string; language: string; kind: LegitKind; text: string }[];
  errors: { conversation: string; language: string; kind: ErrorKind; text: string }[];
}

/** Lines alternate user / assistant, as the corpus writes them. */
function transcriptOf(lines: readonly string[]): string {
  const messages = lines.map(
    (content, i): Message => ({
      id: `m${i}`,
      role: i % 2 === 0 ? 'user' : 'assistant',
      content,
      createdAt: i,
    }),
  );
  return renderTranscript(messages);
}

/**
 * The sets: `main` (the gate was built on it), `held-out` (written after the gate was built,
 * measured, then used to improve it), `held-out-2` (the same, after that change) and `held-out-3`
 * (written after the change that followed held-out-2; measured once, then used for one more
 * change: person words and first-person refusals) and `held-out-4` (written after that change;
 * measured once).
 */
export type GateCorpusSet = 'main' | 'held-out' | 'held-out-2' | 'held-out-3' | 'held-out-4';

export function loadGateCorpus(set: GateCorpusSet = 'main'): GateCorpus {
  const dir = new URL(set === 'main' ? './' : `./${set}/`, import.meta.url);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as CorpusFile);
  const conversations = new Map<string, string[]>();
  for (const file of files) {
    for (const [id, lines] of Object.entries(file.conversations)) {
      if (conversations.has(id)) throw new Error(`gate corpus: conversation ${id} twice`);
      conversations.set(id, lines);
    }
  }
  const transcripts = new Map<string, string>();
  const seen = new Map<string, number>();
  const caseOf = <K extends string>(item: {
    conversation: string;
    language: string;
    kind: K;
    text: string;
  }): GateCase<K> => {
    const lines = conversations.get(item.conversation);
    if (lines === undefined) throw new Error(`gate corpus: no conversation ${item.conversation}`);
    let transcript = transcripts.get(item.conversation);
    if (transcript === undefined) {
      transcript = transcriptOf(lines);
      transcripts.set(item.conversation, transcript);
    }
    const n = (seen.get(item.conversation) ?? 0) + 1;
    seen.set(item.conversation, n);
    return {
      id: `${item.conversation}#${n}`,
      conversationLanguage: item.conversation.slice(0, item.conversation.indexOf('-')),
      language: item.language,
      kind: item.kind,
      transcript,
      text: item.text,
    };
  };
  return {
    legit: files.flatMap((f) => f.summaries.map(caseOf)),
    errors: files.flatMap((f) => f.errors.map(caseOf)),
  };
}

/** How many cases there are per value of `key` (a language or a kind). */
export function countBy<T>(cases: readonly T[], key: (c: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of cases) counts[key(c)] = (counts[key(c)] ?? 0) + 1;
  return counts;
}
