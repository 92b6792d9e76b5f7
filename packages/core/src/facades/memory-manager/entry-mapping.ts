import { type CountedMessage, isSummaryMessage, messageText } from '../../model/message.ts';
import type { MemoryEntry, MemoryEntryType } from './memory-entry.ts';

/**
 * How Memory Manager entries map onto mem messages, 1:1 and with the same id:
 *
 * | entry         | role        | message                                                        |
 * |---------------|-------------|----------------------------------------------------------------|
 * | `message`     | user/assist | a `user` or `assistant` message                                 |
 * | `tool_call`   | assistant   | an `assistant` message, empty text, one tool call; the entry's  |
 * |               |             | content is the call's arguments (JSON text)                     |
 * | `tool_result` | system      | a `tool` message answering the call (`toolCallId`), `isError`   |
 * | `context`     | system      | a `system` message with `metadata.kind: 'context'` (history:    |
 * |               |             | compressible); a pinned one has no `kind` (a system prompt)     |
 * | `summary`     | system      | the engine's summary message (`metadata.kind: 'summary'`)       |
 *
 * Entry metadata is the message's metadata, minus the keys the mapping owns, plus what the
 * message holds outside metadata and a user needs to see:
 * - `tool_call`: `toolName`, `toolCallId`;
 * - `tool_result`: `toolName`, `toolCallId`, `isError`;
 * - `context`: `source` (the file name, say; stored as plain metadata), `pinned: true` for a
 *   pinned one; `kind` is hidden;
 * - `summary`: `interactions` and `source` (`summarizer` or `fallback`) as the engine wrote them;
 *   `kind` and `timeRange` are hidden (the `MemorySummary` carries the time range).
 * Those keys are reserved per type: user metadata under them is replaced. Empty metadata is left
 * out. Compressed entries are the archived originals, linked by `summaryId`.
 *
 * Sessions written through the facade round-trip exactly. A message written through the engine
 * directly with what an entry cannot carry (image parts, several tool calls, `name`) is reported
 * by its text and first tool call.
 */
export const RESERVED_METADATA_KEYS: Readonly<Record<MemoryEntryType, readonly string[]>> = {
  message: [],
  tool_call: ['toolName', 'toolCallId'],
  tool_result: ['toolName', 'toolCallId', 'isError'],
  context: ['kind', 'pinned'],
  summary: ['kind', 'timeRange'],
};

/** Placeholder tool name of a foreign tool message that has none. */
export const UNKNOWN_TOOL_NAME = 'unknown';

/** Which kind of entry a stored message is. */
export function entryTypeOf(message: CountedMessage): MemoryEntryType {
  switch (message.role) {
    case 'user':
      return 'message';
    case 'assistant':
      return message.toolCalls !== undefined && message.toolCalls.length > 0
        ? 'tool_call'
        : 'message';
    case 'tool':
      return 'tool_result';
    case 'system':
      return isSummaryMessage(message) ? 'summary' : 'context';
  }
}

function without(
  metadata: Record<string, unknown> | undefined,
  keys: readonly string[],
): Record<string, unknown> {
  if (metadata === undefined) return {};
  // fromEntries defines own properties: a `__proto__` key stays data.
  return Object.fromEntries(Object.entries(metadata).filter(([key]) => !keys.includes(key)));
}

const orEmpty = (metadata: Record<string, unknown>) =>
  Object.keys(metadata).length === 0 ? {} : { metadata };

/** The entry of a stored message; `summaryId` when a summary replaced it. */
export function toEntry(message: CountedMessage, summaryId: string | undefined): MemoryEntry {
  const type = entryTypeOf(message);
  const own = without(message.metadata, RESERVED_METADATA_KEYS[type]);
  let role: MemoryEntry['role'] = 'system';
  let content = messageText(message);
  let metadata = own;
  if (type === 'message') role = message.role === 'user' ? 'user' : 'assistant';
  else if (type === 'tool_call') {
    const call = message.toolCalls![0]!;
    role = 'assistant';
    content = call.arguments;
    metadata = { ...own, toolName: call.name, toolCallId: call.id };
  } else if (type === 'tool_result') {
    metadata = {
      ...own,
      toolName: message.toolName ?? UNKNOWN_TOOL_NAME,
      ...(message.toolCallId === undefined ? {} : { toolCallId: message.toolCallId }),
      isError: message.isError === true,
    };
  } else if (type === 'context' && message.metadata?.kind !== 'context') {
    metadata = { ...own, pinned: true };
  }
  return {
    id: message.id,
    type,
    role,
    content,
    timestamp: new Date(message.createdAt),
    tokenCount: message.tokenCount,
    compressed: summaryId !== undefined,
    ...(summaryId === undefined ? {} : { summaryId }),
    ...orEmpty(metadata),
  };
}

/** What an entry's message needs besides the entry: resolved links. */
export interface MessageLinks {
  /** `tool_call`, `tool_result`: the call id (from metadata, or paired); a call without one gets a new id. */
  toolCallId?: string;
  /** `summary`: the time range of what it replaced, ms since the epoch. */
  timeRange?: { start: number; end: number };
}

/** The stored message of an entry (the inverse of `toEntry`). */
export function toMessage(entry: MemoryEntry, links: MessageLinks = {}): CountedMessage {
  const own = without(entry.metadata, RESERVED_METADATA_KEYS[entry.type]);
  const base = { id: entry.id, createdAt: entry.timestamp.getTime(), tokenCount: entry.tokenCount };
  const toolName = String(entry.metadata?.toolName ?? UNKNOWN_TOOL_NAME);
  switch (entry.type) {
    case 'message':
      return {
        ...base,
        role: entry.role === 'user' ? 'user' : 'assistant',
        content: entry.content,
        ...orEmpty(own),
      };
    case 'tool_call':
      return {
        ...base,
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: links.toolCallId ?? newToolCallId(), name: toolName, arguments: entry.content },
        ],
        ...orEmpty(own),
      };
    case 'tool_result':
      return {
        ...base,
        role: 'tool',
        content: entry.content,
        toolName,
        ...(links.toolCallId === undefined ? {} : { toolCallId: links.toolCallId }),
        isError: entry.metadata?.isError === true,
        ...orEmpty(own),
      };
    case 'context':
      return entry.metadata?.pinned === true
        ? { ...base, role: 'system', content: entry.content, ...orEmpty(own) }
        : {
            ...base,
            role: 'system',
            content: entry.content,
            metadata: { ...own, kind: 'context' },
          };
    case 'summary':
      return {
        ...base,
        role: 'system',
        content: entry.content,
        metadata: {
          ...own,
          kind: 'summary',
          ...(links.timeRange === undefined ? {} : { timeRange: links.timeRange }),
        },
      };
  }
}

/** A fresh tool call id, for a call the facade records (and a result that answers no call). */
export function newToolCallId(): string {
  return `call_${crypto.randomUUID()}`;
}
