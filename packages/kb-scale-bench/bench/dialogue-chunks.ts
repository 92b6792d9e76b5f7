import { readFileSync } from 'node:fs';
import type { KnowledgeChunk } from '@mem/core/backend';
import { seededRandom } from '@mem/core/testing';

/**
 * The bench's knowledge: chunks of real dialogue text, three turns a chunk, as the engine writes
 * them for a finished interaction (`Name: text` lines, kind `archive`, the messages it covers).
 * The text is the Ines and Marek dialogue of the recall benchmark (604 turns, original prose);
 * chunk k of session s starts at turn (3k + 29s) mod 604, its speakers are renamed after the
 * session's user, and every number in it is shifted by (s + k) mod 50, so no two chunks of a
 * session within 604 are the same text. 200 sessions, 20 users of 10 sessions each.
 */
export const SESSIONS = 200;
export const USERS = 20;
export const SESSIONS_PER_USER = SESSIONS / USERS;

const DIALOGUE = new URL('../../core/bench/recall/data/dialogue.json', import.meta.url);
const FIRST_NAMES = 'Ines Lena Priya Amara Chen Sofia Noor Yara Mila Zoe'.split(' ');
const SECOND_NAMES = 'Marek Jonas Tomas Kwame Diego Ravi Elias Omar Felix Hugo'.split(' ');
const START = Date.UTC(2025, 0, 11, 17);
const MINUTE = 60_000;

interface Turn {
  first: boolean;
  text: string;
}

interface DialogueFile {
  speakers: [string, string];
  sessions: Array<{ turns: Array<{ speaker: string; text: string }> }>;
}

function loadTurns(): Turn[] {
  const file = JSON.parse(readFileSync(DIALOGUE, 'utf8')) as DialogueFile;
  return file.sessions.flatMap((s) =>
    s.turns.map((t) => ({ first: t.speaker === file.speakers[0], text: t.text })),
  );
}

const TURNS = loadTurns();

export const sessionId = (s: number): string => `session-${s}`;
export const userOf = (s: number): number => Math.floor(s / SESSIONS_PER_USER);
export const userId = (u: number): string => `user-${u}`;

/** The text of chunk `k` of session `s` (three turns). */
function chunkText(s: number, k: number): string {
  const u = userOf(s);
  const names = [FIRST_NAMES[u % 10]!, SECOND_NAMES[(u + Math.floor(u / 10)) % 10]!];
  const shift = (s + k) % 50;
  const start = (3 * k + 29 * s) % TURNS.length;
  const lines: string[] = [];
  for (let j = 0; j < 3; j++) {
    const turn = TURNS[(start + j) % TURNS.length]!;
    const text = turn.text.replace(/\d+/g, (d) => String(Number(d) + shift));
    lines.push(`${turn.first ? names[0] : names[1]}: ${text}`);
  }
  return lines.join('\n');
}

/** Chunk `k` of session `s`, shaped as the engine indexes an interaction of three messages. */
export function chunkAt(s: number, k: number): KnowledgeChunk {
  const text = chunkText(s, k);
  const first = START + s * 1_000 + k * 3 * MINUTE;
  const messageIds = [0, 1, 2].map((j) => `m${3 * k + j + 1}`);
  return {
    id: `${messageIds[0]}:0`,
    text,
    // ~4 characters a token: counting 1M chunks with the tokenizer would dominate the ingest.
    tokenCount: Math.ceil(text.length / 4),
    metadata: {
      sessionId: sessionId(s),
      userId: userId(userOf(s)),
      kind: 'archive',
      messageIds,
      createdAt: first,
      start: first,
      end: first + 2 * MINUTE,
    },
  };
}

/** Session `s`'s chunks of a knowledge base of `size` chunks, in batches of at most `batch`. */
export function* sessionBatches(
  size: number,
  batch: number,
): Generator<{ s: number; chunks: KnowledgeChunk[] }> {
  const perSession = Math.ceil(size / SESSIONS);
  for (let s = 0; s < SESSIONS; s++) {
    const count = Math.min(perSession, Math.max(0, size - s * perSession));
    for (let k = 0; k < count; k += batch) {
      const chunks: KnowledgeChunk[] = [];
      for (let j = k; j < Math.min(count, k + batch); j++) chunks.push(chunkAt(s, j));
      yield { s, chunks };
    }
  }
}

const COMMON = [
  ['When did we talk about', 'and the', 'again?'],
  ['What did you say about', 'and', '?'],
  ['Do you remember the', 'thing, with', '?'],
  ['How did it go with', 'and your', 'in the end?'],
] as const;

/** Words of a chunk worth asking about: letters only, 5+ characters, not a speaker label. */
function askable(text: string): string[] {
  const names = new Set([...FIRST_NAMES, ...SECOND_NAMES]);
  return (text.match(/\p{L}{5,}/gu) ?? []).filter((w) => !names.has(w));
}

/**
 * A question a person might ask: two words of one of the scope's own chunks inside common
 * words (`When did we talk about <w1> and the <w2> again?`). Deterministic for (s, k, seed).
 */
export function questionAbout(s: number, k: number, seed: number): string {
  const rand = seededRandom(seed * 7919 + s * 104_729 + k);
  const words = askable(chunkText(s, k));
  const pick = () => words[Math.floor(rand() * words.length)] ?? 'weekend';
  const [a, b, c] = COMMON[Math.floor(rand() * COMMON.length)]!;
  return `${a} ${pick()} ${b} ${pick()} ${c}`;
}

export interface BenchQuery {
  text: string;
  sessionId?: string;
  userId?: string;
}

/**
 * `count` queries over a knowledge base of `size` chunks, scoped to a session (`by` session)
 * or a user (`by` user), spread over every session / user; `seed` picks the words.
 */
export function benchQueries(
  size: number,
  count: number,
  by: 'session' | 'user',
  seed: number,
): BenchQuery[] {
  const perSession = Math.ceil(size / SESSIONS);
  const rand = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const s =
      by === 'session'
        ? (i * 37 + seed) % SESSIONS
        : ((i % USERS) * SESSIONS_PER_USER + Math.floor(rand() * SESSIONS_PER_USER)) % SESSIONS;
    const k = Math.floor(rand() * perSession);
    const text = questionAbout(s, k, seed + i);
    return by === 'session'
      ? { text, sessionId: sessionId(s) }
      : { text, userId: userId(userOf(s)) };
  });
}
