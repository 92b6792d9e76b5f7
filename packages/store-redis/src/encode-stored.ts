import {
  type CountedMessage,
  parseCountedMessages,
  type SessionSnapshot,
  type StoredMessage,
} from '@mem/core';

/** How many idempotency keys a session keeps (the newest); the append script uses the same. */
export const IDEMPOTENCY_WINDOW = 1024;

/**
 * An id as Redis stores it (set members, hash fields, list items): its JSON text. JSON escapes
 * lone surrogates, which UTF-8 encoding would turn into U+FFFD and so make distinct ids collide.
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
  /** The messages as given (fast path) or as core's parser copied them. */
  messages: readonly CountedMessage[];
  args: string[];
  tokens: number;
}

/**
 * `parseCountedMessages` then `messageArgs`, with a fast path: a batch of plain messages that
 * core's schema certainly accepts unchanged (known fields of the right types, string or text-part
 * content, no metadata, ids unique in the batch) is encoded in one pass, as the same JSON the
 * parsed copy gives (schema field order). Anything else goes through core's parser, so every
 * error (and every accepted odd input) is exactly core's.
 */
export function encodeBatch(messages: unknown): EncodedBatch {
  const fast = Array.isArray(messages) ? encodePlain(messages) : undefined;
  if (fast !== undefined) return fast;
  const batch = parseCountedMessages(messages);
  return { messages: batch, args: messageArgs(batch), tokens: sumTokens(batch) };
}

const FIELDS = new Set([
  'id',
  'role',
  'content',
  'toolCalls',
  'toolCallId',
  'toolName',
  'isError',
  'name',
  'createdAt',
  'tokenCount',
]);
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const str = JSON.stringify;

function isPlain(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}

function encodePlain(messages: readonly unknown[]): EncodedBatch | undefined {
  if (messages.length === 0) return undefined;
  const n = messages.length;
  const args: string[] = new Array(n * 2);
  const seen = new Set<string>();
  let tokens = 0;
  for (let i = 0; i < messages.length; i++) {
    if (!(i in messages)) return undefined;
    const m = messages[i];
    if (!isPlain(m)) return undefined;
    for (const key of Object.keys(m)) if (!FIELDS.has(key)) return undefined;
    const { id, role, content, createdAt, tokenCount } = m;
    if (typeof id !== 'string' || id.length < 1 || id.length > 256 || seen.has(id))
      return undefined;
    if (typeof role !== 'string' || !ROLES.has(role)) return undefined;
    if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) return undefined;
    if (!Number.isSafeInteger(tokenCount) || (tokenCount as number) < 0) return undefined;
    const body = encodeContent(content);
    if (body === undefined) return undefined;
    let json = `{"id":${str(id)},"role":"${role}","content":${body}`;
    if (m.toolCalls !== undefined) {
      const calls = encodeToolCalls(m.toolCalls);
      if (calls === undefined) return undefined;
      json += `,"toolCalls":${calls}`;
    }
    const { toolCallId, toolName, isError, name } = m;
    if (toolCallId !== undefined) {
      if (typeof toolCallId !== 'string' || toolCallId.length === 0) return undefined;
      json += `,"toolCallId":${str(toolCallId)}`;
    }
    if (toolName !== undefined) {
      if (typeof toolName !== 'string') return undefined;
      json += `,"toolName":${str(toolName)}`;
    }
    if (isError !== undefined) {
      if (typeof isError !== 'boolean') return undefined;
      json += `,"isError":${isError}`;
    }
    if (name !== undefined) {
      if (typeof name !== 'string') return undefined;
      json += `,"name":${str(name)}`;
    }
    json += `,"createdAt":${str(createdAt)},"tokenCount":${str(tokenCount)}}`;
    seen.add(id);
    tokens += tokenCount as number;
    args[i] = idField(id);
    args[n + i] = json;
  }
  return { messages: messages as CountedMessage[], args, tokens };
}

function encodeContent(content: unknown): string | undefined {
  if (typeof content === 'string') return str(content);
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (let i = 0; i < content.length; i++) {
    const part = content[i];
    if (!(i in content) || !isPlain(part) || part.type !== 'text') return undefined;
    if (typeof part.text !== 'string' || Object.keys(part).length !== 2) return undefined;
    parts.push(`{"type":"text","text":${str(part.text)}}`);
  }
  return `[${parts.join(',')}]`;
}

function encodeToolCalls(calls: unknown): string | undefined {
  if (!Array.isArray(calls)) return undefined;
  const out: string[] = [];
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    if (!(i in calls) || !isPlain(call) || Object.keys(call).length !== 3) return undefined;
    const { id, name, arguments: args } = call;
    if (typeof id !== 'string' || id.length === 0) return undefined;
    if (typeof name !== 'string' || name.length === 0) return undefined;
    if (typeof args !== 'string') return undefined;
    out.push(`{"id":${str(id)},"name":${str(name)},"arguments":${str(args)}}`);
  }
  return `[${out.join(',')}]`;
}
