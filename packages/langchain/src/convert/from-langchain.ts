import type { BaseMessage } from '@langchain/core/messages';
import { type FromWireOptions, MemValidationError, type Message, type ToolCall } from '@mem/core';
import { checkLangChainFields } from './check-langchain-fields.ts';
import { contentFromLangChain } from './content-blocks.ts';
import { isJsonValue, LANGCHAIN_METADATA_KEY, type LangChainExtras } from './langchain-extras.ts';
import { isEmpty, sameValue } from './same-value.ts';

type Fields = Omit<Message, 'id' | 'createdAt'>;

const ROLES: Record<string, Message['role']> = {
  human: 'user',
  ai: 'assistant',
  system: 'system',
  tool: 'tool',
};

/**
 * LangChain messages as mem messages, losslessly: `toLangChainMessages` gives back messages with
 * the same type, content, id, name, tool calls (and invalid ones), usage, response metadata,
 * additional kwargs, tool call id, status and artifact. HumanMessage → `user`, AIMessage (and its
 * chunks) → `assistant` with `toolCalls` (arguments as JSON text), SystemMessage → `system`,
 * ToolMessage → `tool` (`tool_call_id` → `toolCallId`, `name` → `toolName`, `status: 'error'` →
 * `isError: true`). What mem has no field for is kept under `metadata.langchain`.
 *
 * @throws MemValidationError for another message type, a tool call or ToolMessage without an id,
 *   or a field a store cannot hold as JSON.
 */
export function fromLangChainMessages(
  messages: readonly BaseMessage[],
  options: FromWireOptions = {},
): Message[] {
  const generateId = options.generateId ?? (() => crypto.randomUUID());
  const now = options.now ?? Date.now;
  return messages.map((m, i) => ({
    id: generateId(),
    ...fromLangChainMessage(m, i),
    createdAt: now(),
  }));
}

/** One LangChain message as mem message fields (no id or creation time: the engine adds them). */
export function fromLangChainMessage(message: BaseMessage, index: number): Fields {
  const field = `messages[${index}]`;
  const type: unknown = typeof message === 'object' && message !== null ? message.type : undefined;
  const role = typeof type === 'string' && Object.hasOwn(ROLES, type) ? ROLES[type] : undefined;
  if (role === undefined) {
    throw new MemValidationError(
      field,
      `[mem/langchain] ${field} is a ${typeof type === 'string' ? JSON.stringify(type) : message === null ? 'null' : typeof message} message; mem stores HumanMessage, AIMessage, SystemMessage and ToolMessage. Convert it to one of those first.`,
    );
  }
  checkLangChainFields(message, type as string, field);
  const extras: LangChainExtras = {};
  if (message.id !== undefined) extras.id = message.id;
  const converted = contentFromLangChain(message.content);
  if (!converted.exact) extras.content = message.content as NonNullable<LangChainExtras['content']>;
  if (!isEmpty(message.additional_kwargs)) extras.additional_kwargs = message.additional_kwargs;
  if (!isEmpty(message.response_metadata)) extras.response_metadata = message.response_metadata;
  const out: Fields = { role, content: converted.content };

  if (type === 'ai') {
    const ai = message as BaseMessage & {
      tool_calls?: { id?: string; name: string; args: unknown }[];
      invalid_tool_calls?: unknown[];
      usage_metadata?: Record<string, unknown>;
    };
    const calls = ai.tool_calls ?? [];
    if (calls.length > 0) {
      out.toolCalls = calls.map((c, j) => toMemToolCall(c, `${field}.tool_calls[${j}]`));
      if (!sameValue(toolCallsFromMem(out.toolCalls), calls)) extras.tool_calls = calls;
    }
    if (ai.invalid_tool_calls !== undefined && ai.invalid_tool_calls.length > 0) {
      extras.invalid_tool_calls = ai.invalid_tool_calls;
    }
    if (ai.usage_metadata !== undefined) extras.usage_metadata = ai.usage_metadata;
  }
  if (type === 'tool') {
    const tool = message as BaseMessage & {
      tool_call_id?: string;
      status?: 'success' | 'error';
      artifact?: unknown;
      metadata?: Record<string, unknown>;
    };
    if (typeof tool.tool_call_id !== 'string' || tool.tool_call_id === '') {
      throw new MemValidationError(
        `${field}.tool_call_id`,
        `[mem/langchain] ${field}.tool_call_id must be the id of the tool call it answers (a non-empty string).`,
      );
    }
    out.toolCallId = tool.tool_call_id;
    if (message.name !== undefined) out.toolName = message.name;
    if (tool.status !== undefined) out.isError = tool.status === 'error';
    if (tool.artifact !== undefined) extras.artifact = tool.artifact;
    if (tool.metadata !== undefined) extras.metadata = tool.metadata;
  } else if (message.name !== undefined) {
    out.name = message.name;
  }
  for (const [key, value] of Object.entries(extras)) {
    if (!isJsonValue(value)) {
      throw new MemValidationError(
        `${field}.${key}`,
        `[mem/langchain] ${field}.${key} must be JSON data (plain objects, arrays, strings, finite numbers, booleans, null) so a store can keep it exactly.`,
      );
    }
  }
  out.metadata = { [LANGCHAIN_METADATA_KEY]: extras };
  return out;
}

function toMemToolCall(
  call: { id?: string; name: string; args: unknown },
  field: string,
): ToolCall {
  if (typeof call.id !== 'string' || call.id === '') {
    throw new MemValidationError(
      `${field}.id`,
      `[mem/langchain] ${field}.id is missing: give every tool call an id, so its ToolMessage can answer it.`,
    );
  }
  if (typeof call.name !== 'string' || call.name === '') {
    throw new MemValidationError(
      `${field}.name`,
      `[mem/langchain] ${field}.name must name the tool.`,
    );
  }
  if (!isJsonValue(call.args ?? {})) {
    throw new MemValidationError(
      `${field}.args`,
      `[mem/langchain] ${field}.args must be JSON data (plain objects, arrays, strings, finite numbers, booleans, null): mem stores tool-call arguments as JSON text.`,
    );
  }
  return { id: call.id, name: call.name, arguments: JSON.stringify(call.args ?? {}) };
}

/** mem tool calls as LangChain `tool_calls` (arguments parsed; unparsable text becomes `{}`). */
export function toolCallsFromMem(calls: readonly ToolCall[]): {
  type: 'tool_call';
  id: string;
  name: string;
  args: Record<string, unknown>;
}[] {
  return calls.map((c) => ({
    type: 'tool_call',
    id: c.id,
    name: c.name,
    args: parseArgs(c.arguments),
  }));
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
