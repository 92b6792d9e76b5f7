import {
  type CountedMessage,
  encodeMessageBatch,
  type SessionSnapshot,
  type StoredMessage,
} from '@mem/core/backend';

/** How many idempotency keys a session keeps (the newest); the append script uses the same. */
export const IDEMPOTENCY_WINDOW = 1024;

/**
 * An id as Redis stores it (set members, hash fields, list items): its JSON text, so no id can
 * be mistaken for another field's text (ids are well-formed Unicode: core rejects the rest).
 */
export function idKey(id: string): string {
  return JSON.stringify(id);
}

/** An archived message: the message's own JSON with `"seq":N` as the last field. */
export function storedMember(message: CountedMessage, seq: number): string {
  return `${JSON.stringify(message).slice(0, -1)},"seq":${seq}}`;
}

/** The meta hash field that marks a message or summary id as used: `i:` + `idKey(id)`. */
export function idField(id: string): string {
  return `i:${idKey(id)}`;
}

/**
 * The script arguments of a batch: the n id fields, then the n active members (the messages'
 * own JSON; the seq is the score).
 */
export function messageArgs(messages: readonly CountedMessage[]): string[] {
  return [...messages.map((m) => idField(m.id)), ...messages.map((m) => JSON.stringify(m))];
}

export function sumTokens(messages: readonly { tokenCount: number }[]): number {
  let sum = 0;
  for (const m of messages) sum += m.tokenCount;
  return sum;
}

function withoutSeq(message: StoredMessage): CountedMessage {
  const { seq: _seq, ...rest } = message;
  return rest;
}

function archivedMember(message: StoredMessage): string {
  return storedMember(withoutSeq(message), message.seq);
}

/** ARGV of the import script for a snapshot checked by `parseSessionSnapshot`. */
export function importArgs(s: SessionSnapshot, ttl: number): (string | number)[] {
  const { info } = s;
  const byId = new Map(s.archived.map((m) => [m.id, m]));
  const keys = s.idempotencyKeys.slice(-IDEMPOTENCY_WINDOW);
  const ids = [...s.messages, ...s.archived].map((m) => idKey(m.id));
  const args: (string | number)[] = [
    ttl,
    info.version,
    info.epoch,
    info.lastSeq,
    info.messageCount,
    info.tokenCount,
    String(info.createdAt),
    String(info.updatedAt),
    s.messages.length,
    s.summaries.length,
    keys.length,
    ids.length,
    info.userId ?? '',
  ];
  for (const m of s.messages) args.push(m.seq, JSON.stringify(withoutSeq(m)));
  for (const r of s.summaries) {
    const originals = r.originalMessageIds.map((id) => archivedMember(byId.get(id)!));
    args.push(idKey(r.id), JSON.stringify(r), `[${originals.join(',')}]`);
  }
  for (const k of keys) args.push(k.key, `${k.version}:${k.epoch}:${k.firstSeq}:${k.lastSeq}`);
  args.push(...ids);
  return args;
}

/** A batch ready for the append script: `messageArgs` and the token sum. */
export interface EncodedBatch {
  /** The message ids, in order. */
  ids: readonly string[];
  args: string[];
  tokens: number;
}

/** Core's `encodeMessageBatch` (checked, one pass for plain batches) shaped as script arguments. */
export function encodeBatch(messages: unknown): EncodedBatch {
  const batch = encodeMessageBatch(messages);
  const ids = batch.map((m) => m.id);
  return {
    ids,
    args: [...ids.map(idField), ...batch.map((m) => m.json)],
    tokens: sumTokens(batch),
  };
}
