import type { CountedMessage, SessionSnapshot, StoredMessage } from '@mem/core';

/** How many idempotency keys a session keeps (the newest); the append script uses the same. */
export const IDEMPOTENCY_WINDOW = 1024;

/**
 * An id as Redis stores it (set members, hash fields, list items): its JSON text. JSON escapes
 * lone surrogates, which UTF-8 encoding would turn into U+FFFD and so make distinct ids collide.
 */
export function idKey(id: string): string {
  return JSON.stringify(id);
}

/** A stored message as its zset member: `{"seq":N,...}` then the message's own JSON fields. */
export function storedMember(message: CountedMessage, seq: number): string {
  return `{"seq":${seq},${JSON.stringify(message).slice(1)}`;
}

/** (id, message JSON without seq) pairs; the scripts add `"seq":N` in front. */
export function messageArgs(messages: readonly CountedMessage[]): string[] {
  return messages.flatMap((m) => [idKey(m.id), JSON.stringify(m)]);
}

export function sumTokens(messages: readonly { tokenCount: number }[]): number {
  let sum = 0;
  for (const m of messages) sum += m.tokenCount;
  return sum;
}

function memberOf(message: StoredMessage): string {
  const { seq, ...rest } = message;
  return storedMember(rest, seq);
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
  ];
  for (const m of s.messages) args.push(m.seq, memberOf(m));
  for (const r of s.summaries) {
    const originals = r.originalMessageIds.map((id) => memberOf(byId.get(id)!));
    args.push(idKey(r.id), JSON.stringify(r), `[${originals.join(',')}]`);
  }
  for (const k of keys) args.push(k.key, `${k.version}:${k.epoch}:${k.firstSeq}:${k.lastSeq}`);
  args.push(...ids);
  return args;
}
