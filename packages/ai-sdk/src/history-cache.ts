import type { MemoryEngine, MemorySession, SessionInfo, StoredMessage } from '@mem/core';
import { fingerprint, plainTextOf, textFingerprint } from './message-fingerprint.ts';
import type { PromptHistory } from './prompt-history.ts';

/*
 * What the middleware knew of a session's stored conversation after its last call: the
 * fingerprints of the newest active messages (system messages aside), kept per engine and
 * session so that a chat app re-sending its whole history is compared with them instead of
 * reading and fingerprinting as many stored messages again.
 *
 * It is a hint, never the truth: each call reads the session's counters from the store first
 * (`store.info`, one point read) and uses what is kept only when they are exactly the ones it
 * was kept at. Every change to a session grows its version (Store spec), whoever makes it:
 * another process, another engine on the same file or server, a handle of this engine, a
 * compaction. What the middleware appends itself moves the kept counters on as the store will
 * have them (version + 1, the new seqs) when the seqs follow the kept ones; if anything else
 * happened meanwhile the store's counters differ from these, and the next call reads the store.
 */

/** The counters a kept history is valid at (all must match the store's). */
interface Counters {
  version: number;
  epoch: number;
  lastSeq: number;
  messageCount: number;
  createdAt: number;
}

/**
 * The newest active messages other than system ones, oldest first: a message of text only by its
 * role and text (what its fingerprint is made of), any other by its fingerprint.
 */
export interface KeptHistory {
  readonly roles: readonly string[];
  /** The text of a message of text only (`plainTextOf`), else undefined. */
  readonly texts: readonly (string | undefined)[];
  /** The fingerprint of a message other than text only, else undefined. */
  readonly others: readonly (string | undefined)[];
  /** They are every active message other than system ones. */
  readonly whole: boolean;
  /** The newest active message other than a system one. */
  readonly last: StoredMessage | undefined;
}

interface Entry extends KeptHistory {
  sessionId: string;
  counters: Counters;
  roles: string[];
  texts: Array<string | undefined>;
  others: Array<string | undefined>;
  whole: boolean;
  last: StoredMessage | undefined;
  userId: string | undefined;
  /** Most fingerprints kept: twice the latest prompt and 64 more. */
  limit: number;
  chars: number;
}

/** Sessions kept per engine, least recently used dropped first. */
const MAX_SESSIONS = 64;
/** Fingerprint characters kept per engine (about 2 bytes each): ~16 MB. */
const MAX_CHARS = 8_000_000;

interface EngineHistories {
  entries: Map<string, Entry>;
  chars: number;
}

const byEngine = new WeakMap<object, EngineHistories>();

function historiesOf(engine: MemoryEngine): EngineHistories {
  let of = byEngine.get(engine);
  if (of === undefined) {
    of = { entries: new Map(), chars: 0 };
    byEngine.set(engine, of);
  }
  return of;
}

const countersOf = (info: SessionInfo): Counters => ({
  version: info.version,
  epoch: info.epoch,
  lastSeq: info.lastSeq,
  messageCount: info.messageCount,
  createdAt: info.createdAt,
});

const sameCounters = (a: Counters, b: Counters) =>
  a.version === b.version &&
  a.epoch === b.epoch &&
  a.lastSeq === b.lastSeq &&
  a.messageCount === b.messageCount &&
  a.createdAt === b.createdAt;

/** Keeps one more message; its size in characters. */
function keep(e: Entry, m: StoredMessage, known?: string): number {
  const text = plainTextOf(m);
  const other = text === undefined ? (known ?? fingerprint(m)) : undefined;
  e.roles.push(m.role);
  e.texts.push(text);
  e.others.push(other);
  e.last = m;
  return (text ?? other ?? '').length;
}

/**
 * The longest run at the start of the prompt that equals the end of what is kept (rule a of
 * history-alignment.ts, message by message as `resentPrefix` compares fingerprints): role and
 * text for a plain prompt, fingerprints otherwise.
 */
export function keptResentPrefix(prompt: PromptHistory, kept: KeptHistory): number {
  const { roles, texts, others } = kept;
  const m = roles.length;
  const plain = prompt.plain;
  let same: (i: number, j: number) => boolean;
  if (plain !== undefined) {
    same = (i, j) =>
      texts[j] === plain.texts[i] && texts[j] !== undefined && roles[j] === plain.roles[i];
  } else {
    const h = prompt.fingerprints;
    same = (i, j) =>
      h[i] === (others[j] ?? textFingerprint(roles[j] as string, texts[j] as string));
  }
  for (let k = Math.min(prompt.length, m); k > 0; k--) {
    let equal = true;
    for (let i = 0; i < k && equal; i++) equal = same(i, m - k + i);
    if (equal) return k;
  }
  return 0;
}

/**
 * One call's view of a session's kept history: `kept` when the store is still at the counters
 * it was kept at, then `remember` (after a read of the store) and `appended` (after each append)
 * keep it up to date. Engines whose sessions live in a private store (`EPHEMERAL`) keep nothing:
 * their counters cannot be read.
 */
export interface SessionHistory {
  readonly kept: KeptHistory | undefined;
  /** The prompt's messages were compared with `tail` (read from the store after `check`). */
  remember(
    tail: { messages: readonly StoredMessage[]; fingerprints: readonly string[]; whole: boolean },
    promptLength: number,
  ): void;
  /** The middleware appended these messages (as `session.append` returned them). */
  appended(messages: readonly StoredMessage[]): void;
  /** What is kept may no longer hold (a changed tail was removed, an error): read next time. */
  forget(): void;
}

const none: SessionHistory = {
  kept: undefined,
  remember: () => {},
  appended: () => {},
  forget: () => {},
};

/** Reads the session's counters (one point read) and returns what is kept for them, if anything. */
export async function sessionHistory(
  engine: MemoryEngine,
  session: MemorySession,
): Promise<SessionHistory> {
  if (engine.profile.config.persistence_strategy === 'EPHEMERAL') return none;
  const info = await engine.store.info(session.id);
  // A session not stored yet (or cleared) is kept from its next call on.
  if (info === null) return none;
  const histories = historiesOf(engine);
  const id = session.id;
  const found = histories.entries.get(id);
  const drop = (entry: Entry | undefined) => {
    if (entry === undefined || histories.entries.get(entry.sessionId) !== entry) return;
    histories.entries.delete(entry.sessionId);
    histories.chars -= entry.chars;
  };
  const read = countersOf(info);
  let entry =
    found !== undefined && found.userId === session.userId && sameCounters(found.counters, read)
      ? found
      : undefined;
  if (found !== undefined && entry === undefined) drop(found);
  if (entry !== undefined) {
    // Most recently used last.
    histories.entries.delete(id);
    histories.entries.set(id, entry);
  }
  const kept = entry;

  const trim = (e: Entry) => {
    const over = e.roles.length - e.limit;
    if (over <= 0) return;
    for (let i = 0; i < over; i++) e.chars -= (e.texts[i] ?? e.others[i] ?? '').length;
    e.roles.splice(0, over);
    e.texts.splice(0, over);
    e.others.splice(0, over);
    e.whole = false;
  };
  const evictOver = (e: Entry) => {
    while (histories.chars > MAX_CHARS || histories.entries.size > MAX_SESSIONS) {
      const oldest = histories.entries.values().next().value as Entry | undefined;
      if (oldest === undefined) break;
      drop(oldest);
      if (oldest === e) break;
    }
  };

  return {
    kept,
    remember(tail, promptLength) {
      // Whatever is kept for the session now (this call's, or one a call without the lock left).
      drop(histories.entries.get(id));
      const e: Entry = {
        sessionId: id,
        // The counters read before the tail: a write in between makes them older than what the
        // tail holds, so the next call sees other counters and reads again.
        counters: read,
        roles: [],
        texts: [],
        others: [],
        whole: tail.whole,
        last: undefined,
        userId: session.userId,
        limit: 2 * promptLength + 64,
        chars: 0,
      };
      tail.messages.forEach((m, i) => {
        e.chars += keep(e, m, tail.fingerprints[i]);
      });
      entry = e;
      trim(entry);
      histories.entries.set(id, entry);
      histories.chars += entry.chars;
      evictOver(entry);
    },
    appended(messages) {
      const e = entry;
      if (e === undefined || messages.length === 0) return;
      if (histories.entries.get(id) !== e) {
        entry = undefined;
        return;
      }
      const first = messages[0] as StoredMessage;
      // Someone else appended since the counters were read: what is kept misses their messages.
      if (first.seq !== e.counters.lastSeq + 1) {
        drop(e);
        entry = undefined;
        return;
      }
      e.counters = {
        ...e.counters,
        version: e.counters.version + 1,
        lastSeq: (messages.at(-1) as StoredMessage).seq,
        messageCount: e.counters.messageCount + messages.length,
      };
      const before = e.chars;
      for (const m of messages) if (m.role !== 'system') e.chars += keep(e, m);
      trim(e);
      histories.chars += e.chars - before;
      evictOver(e);
    },
    forget() {
      if (entry !== undefined) drop(entry);
      entry = undefined;
    },
  };
}
