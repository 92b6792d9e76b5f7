import type { CountedMessage } from '../model/message.ts';
import { parseAppendOptions, parseCountedMessages } from './parse-store-input.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH, MAX_MESSAGE_TOKENS } from './store-limits.ts';
import type { AppendOptions } from './store-spec.ts';
import { sessionIdProblem } from './validate-ids.ts';

/** A checked message of an append batch, ready for a backend to store: its id, tokens and JSON. */
export interface EncodedMessage {
  id: string;
  tokenCount: number;
  /** The message as stored: the JSON of the copy `parseCountedMessages` makes. */
  json: string;
}

/**
 * `parseCountedMessages` then `JSON.stringify` of each copy, with a fast path: a batch of plain
 * messages that core's schema certainly accepts unchanged (known fields of the right types,
 * string or text-part content, no metadata, ids unique in the batch) is checked and encoded in
 * one pass, as the same JSON the parsed copy gives (schema field order). Anything else goes
 * through core's parser, so every error (and every accepted odd input) is exactly core's.
 * Store backends use it on their append path (`@mem/store-sqlite`, `@mem/store-redis`).
 */
export function encodeMessageBatch(messages: unknown): EncodedMessage[] {
  const fast = Array.isArray(messages) ? encodePlain(messages) : undefined;
  if (fast !== undefined) return fast;
  return parseCountedMessages(messages).map(encodeCountedMessage);
}

/** One parsed message as `encodeMessageBatch` encodes it. */
export function encodeCountedMessage(message: CountedMessage): EncodedMessage {
  return { id: message.id, tokenCount: message.tokenCount, json: JSON.stringify(message) };
}

/** `parseIdempotencyKey`, without the schema walk for the usual `{ idempotencyKey: string }`. */
export function readIdempotencyKey(options: unknown): string {
  return readAppendOptions(options).idempotencyKey;
}

/** `parseAppendOptions`, without the schema walk for the usual `{ idempotencyKey, userId? }`. */
export function readAppendOptions(options: unknown): AppendOptions {
  if (isPlain(options)) {
    const { idempotencyKey: key, userId } = options;
    if (
      typeof key === 'string' &&
      key.length >= 1 &&
      key.length <= MAX_IDEMPOTENCY_KEY_LENGTH &&
      key.isWellFormed()
    ) {
      if (userId === undefined) return { idempotencyKey: key };
      if (sessionIdProblem(userId) === undefined)
        return { idempotencyKey: key, userId: userId as string };
    }
  }
  return parseAppendOptions(options);
}

const MAX_ID_LENGTH = 256;
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

function encodePlain(messages: readonly unknown[]): EncodedMessage[] | undefined {
  if (messages.length === 0) return undefined;
  const out: EncodedMessage[] = new Array(messages.length);
  const seen = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    if (!(i in messages)) return undefined;
    const m = messages[i];
    if (!isPlain(m)) return undefined;
    for (const key of Object.keys(m)) if (!FIELDS.has(key)) return undefined;
    const { id, role, content, createdAt, tokenCount } = m;
    if (typeof id !== 'string' || id.length < 1 || id.length > MAX_ID_LENGTH || seen.has(id)) {
      return undefined;
    }
    if (!id.isWellFormed()) return undefined;
    if (typeof role !== 'string' || !ROLES.has(role)) return undefined;
    if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) return undefined;
    if (!Number.isSafeInteger(tokenCount) || (tokenCount as number) < 0) return undefined;
    if ((tokenCount as number) > MAX_MESSAGE_TOKENS) return undefined;
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
    // str(-0) is "0", as in the parsed copy (cloneJsonValue turns -0 into 0).
    json += `,"createdAt":${str(createdAt)},"tokenCount":${str(tokenCount)}}`;
    seen.add(id);
    out[i] = { id, tokenCount: (tokenCount as number) + 0, json };
  }
  return out;
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
