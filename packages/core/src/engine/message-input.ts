import { MemValidationError } from '../errors/errors.ts';
import type { CountedMessage, Message } from '../model/message.ts';
import { messageSchema } from '../model/message-schema.ts';
import { parseWith } from '../store/parse-store-input.ts';
import type { TokenCounter } from '../tokens/token-counter.ts';

/** A message to append: `id` and `createdAt` are filled in when missing. */
export type MessageInput = Omit<Message, 'id' | 'createdAt'> & { id?: string; createdAt?: number };

/**
 * Turns one appended item into a Message, checked before anything counts or stores it: a bad
 * shape is a `MemValidationError` naming the path (`messages[2].content`), never a raw
 * `TypeError` from the token counter. `id` and `createdAt` are filled in when absent. An
 * assistant message that only calls tools may carry `content: null` (OpenAI's wire shape): it is
 * stored as `''`.
 */
export function messageFromInput(
  input: unknown,
  index: number,
  defaults: { newId: () => string; now: number },
): Message {
  const field = `messages[${index}]`;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new MemValidationError(
      field,
      `[mem/core] ${field} must be a message object ({ role, content, ... }), got ${input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input}.`,
    );
  }
  const message: Record<string, unknown> = { ...input };
  if (message.id === undefined) message.id = defaults.newId();
  if (message.createdAt === undefined) message.createdAt = defaults.now;
  if (
    message.content === null &&
    message.role === 'assistant' &&
    Array.isArray(message.toolCalls) &&
    message.toolCalls.length > 0
  ) {
    message.content = '';
  }
  // The common shape is checked here in a few property reads; anything else gets the schema's
  // full check and its error paths. The store checks the rest (ids, metadata) as it writes.
  if (!isCountable(message)) parseWith(messageSchema, message, field, 'mem/core');
  return message as unknown as Message;
}

/**
 * `messageFromInput` with its token count: the given count when it is a number, else counted now,
 * on the message's own copy (no second copy per message on the append path).
 */
export function countedFromInput(
  input: unknown,
  index: number,
  defaults: { newId: () => string; now: number },
  counter: TokenCounter,
): CountedMessage {
  const message = messageFromInput(input, index, defaults) as Message & { tokenCount?: unknown };
  if (typeof message.tokenCount !== 'number') message.tokenCount = counter.countMessage(message);
  return message as CountedMessage;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** True when the token counter can read every field it reads, with the types the schema wants. */
function isCountable(m: Record<string, unknown>): boolean {
  if (typeof m.role !== 'string' || !ROLES.has(m.role)) return false;
  if (m.name !== undefined && typeof m.name !== 'string') return false;
  const { content, toolCalls } = m;
  if (typeof content !== 'string') {
    if (!Array.isArray(content)) return false;
    for (const part of content) {
      if (typeof part !== 'object' || part === null) return false;
      const { type, text } = part as Record<string, unknown>;
      if (type !== 'text' || typeof text !== 'string') return false;
    }
  }
  if (toolCalls !== undefined) {
    if (!Array.isArray(toolCalls)) return false;
    for (const call of toolCalls) {
      if (typeof call !== 'object' || call === null) return false;
      const { id, name, arguments: args } = call as Record<string, unknown>;
      if (typeof id !== 'string' || typeof name !== 'string' || typeof args !== 'string') {
        return false;
      }
    }
  }
  return true;
}
