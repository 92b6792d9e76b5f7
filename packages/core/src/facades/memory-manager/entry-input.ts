import type { MessageInput } from '../../engine/memory-session.ts';
import { MemValidationError } from '../../errors/errors.ts';
import { cloneJsonValue } from '../../store/json-value.ts';
import type { StoredMessage } from '../../store/store-spec.ts';
import { newToolCallId, RESERVED_METADATA_KEYS } from './entry-mapping.ts';
import type { MemoryEntryType } from './memory-entry.ts';

/** Options every add method takes. */
export interface AddEntryOptions {
  /** Stored with the entry (JSON values only). Keys the entry type reserves are replaced. */
  metadata?: Record<string, unknown>;
}

export interface AddToolResultOptions extends AddEntryOptions {
  /** The tool failed; `result` holds the error. Default: `metadata.isError === true`. */
  isError?: boolean;
}

export interface AddContextOptions extends AddEntryOptions {
  /** Never compressed: kept active (as a system prompt) however old it gets. Default false. */
  pinned?: boolean;
}

function text(value: unknown, field: string): string {
  if (typeof value !== 'string') {
    throw new MemValidationError(
      field,
      `[mem/core] MemoryManager: ${field} must be a string, got ${typeof value}.`,
    );
  }
  return value;
}

function toolName(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new MemValidationError(
      'toolName',
      '[mem/core] MemoryManager: toolName must be a non-empty string, e.g. "shell".',
    );
  }
  return value;
}

/** The caller's metadata, checked to be JSON and without the keys `type` reserves. */
function ownMetadata(
  options: AddEntryOptions | undefined,
  type: MemoryEntryType,
): Record<string, unknown> {
  const metadata = options?.metadata;
  if (metadata === undefined) return {};
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new MemValidationError(
      'metadata',
      '[mem/core] MemoryManager: metadata must be a plain object of JSON values.',
    );
  }
  const copy = cloneJsonValue(metadata, 'metadata', 1);
  for (const key of RESERVED_METADATA_KEYS[type]) delete copy[key];
  return copy;
}

const withMetadata = (metadata: Record<string, unknown>) =>
  Object.keys(metadata).length === 0 ? {} : { metadata };

export function messageInput(
  role: 'user' | 'assistant',
  content: unknown,
  options?: AddEntryOptions,
): MessageInput {
  return {
    role,
    content: text(content, 'content'),
    ...withMetadata(ownMetadata(options, 'message')),
  };
}

export function toolCallInput(
  name: unknown,
  args: unknown,
  options?: AddEntryOptions,
): MessageInput {
  let json: string | undefined;
  try {
    json = JSON.stringify(args);
  } catch (error) {
    throw new MemValidationError(
      'args',
      '[mem/core] MemoryManager: tool call args must be JSON-serializable.',
      { cause: error },
    );
  }
  if (json === undefined) {
    throw new MemValidationError(
      'args',
      '[mem/core] MemoryManager: tool call args must be JSON-serializable, e.g. { command: "ls" }.',
    );
  }
  return {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: newToolCallId(), name: toolName(name), arguments: json }],
    ...withMetadata(ownMetadata(options, 'tool_call')),
  };
}

/** The id of the newest call of `name` that no tool message answers yet. */
export function openCallId(active: readonly StoredMessage[], name: string): string | undefined {
  const answered = new Set<string>();
  for (const m of active)
    if (m.role === 'tool' && m.toolCallId !== undefined) answered.add(m.toolCallId);
  for (let i = active.length - 1; i >= 0; i--) {
    const calls = active[i]!.toolCalls ?? [];
    for (let j = calls.length - 1; j >= 0; j--) {
      const call = calls[j]!;
      if (call.name === name && !answered.has(call.id)) return call.id;
    }
  }
  return undefined;
}

/**
 * A tool message answering `callId`; without one (the call was compressed, or never recorded) it
 * gets an id of its own and stays in history, while prompts leave it out as an orphan.
 */
export function toolResultInput(
  name: unknown,
  result: unknown,
  callId: string | undefined,
  options?: AddToolResultOptions,
): MessageInput {
  const isError = options?.isError ?? options?.metadata?.isError === true;
  if (typeof isError !== 'boolean') {
    throw new MemValidationError('isError', '[mem/core] MemoryManager: isError must be a boolean.');
  }
  return {
    role: 'tool',
    content: text(result, 'result'),
    toolName: toolName(name),
    toolCallId: callId ?? newToolCallId(),
    isError,
    ...withMetadata(ownMetadata(options, 'tool_result')),
  };
}

export function contextInput(
  content: unknown,
  source: unknown,
  options?: AddContextOptions,
): MessageInput {
  if (source !== undefined && typeof source !== 'string') {
    throw new MemValidationError(
      'source',
      '[mem/core] MemoryManager: source must be a string (a file name, say).',
    );
  }
  const metadata = {
    ...ownMetadata(options, 'context'),
    ...(source === undefined ? {} : { source }),
  };
  const body = text(content, 'content');
  return options?.pinned === true
    ? { role: 'system', content: body, ...withMetadata(metadata) }
    : { role: 'system', content: body, metadata: { ...metadata, kind: 'context' } };
}
