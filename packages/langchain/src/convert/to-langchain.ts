import {
  AIMessage,
  type AIMessageFields,
  type BaseMessage,
  HumanMessage,
  type HumanMessageFields,
  SystemMessage,
  type SystemMessageFields,
  ToolMessage,
  type ToolMessageFields,
} from '@langchain/core/messages';
import type { Message, ToolCall } from '@mem/core';
import { contentToLangChain } from './content-blocks.ts';
import { toolCallsFromMem } from './from-langchain.ts';
import { langChainExtras } from './langchain-extras.ts';

/**
 * mem messages as LangChain messages: the inverse of `fromLangChainMessages` (exact for messages
 * that came from LangChain), and a faithful reading of any other mem message (a summary, a
 * message from another wire format): `system` → SystemMessage, `user` → HumanMessage,
 * `assistant` → AIMessage (tool calls with parsed arguments; arguments that are not a JSON object
 * become an `invalid_tool_calls` entry), `tool` → ToolMessage (`isError` → `status: 'error'`).
 * A message that did not come from LangChain gets its mem id as `id`.
 */
export function toLangChainMessages(messages: readonly Message[]): BaseMessage[] {
  return messages.map(toLangChainMessage);
}

export function toLangChainMessage(message: Message): BaseMessage {
  const extras = langChainExtras(message.metadata);
  const fields: Record<string, unknown> = {
    content: extras?.content ?? contentToLangChain(message.content),
    additional_kwargs: extras?.additional_kwargs ?? {},
    response_metadata: extras?.response_metadata ?? {},
  };
  const id = extras === undefined ? message.id : extras.id;
  if (id !== undefined) fields.id = id;
  const name = message.role === 'tool' ? message.toolName : message.name;
  if (name !== undefined) fields.name = name;
  switch (message.role) {
    case 'system':
      return new SystemMessage(fields as unknown as SystemMessageFields);
    case 'user':
      return new HumanMessage(fields as unknown as HumanMessageFields);
    case 'assistant': {
      const calls = splitToolCalls(message.toolCalls ?? []);
      fields.tool_calls = keptToolCalls(extras?.tool_calls, message.toolCalls) ?? calls.valid;
      fields.invalid_tool_calls = extras?.invalid_tool_calls ?? calls.invalid;
      if (extras?.usage_metadata !== undefined) fields.usage_metadata = extras.usage_metadata;
      return new AIMessage(fields as unknown as AIMessageFields);
    }
    case 'tool':
      fields.tool_call_id = message.toolCallId ?? '';
      if (message.isError !== undefined) fields.status = message.isError ? 'error' : 'success';
      if (extras?.artifact !== undefined) fields.artifact = extras.artifact;
      if (extras?.metadata !== undefined) fields.metadata = extras.metadata;
      return new ToolMessage(fields as unknown as ToolMessageFields);
  }
}

/**
 * The original LangChain tool calls of the mem message's calls: all of them, or (after mem
 * stripped calls that had no result) those whose id the message still has.
 */
function keptToolCalls(original: unknown[] | undefined, calls: readonly ToolCall[] = []) {
  if (original === undefined) return undefined;
  const ids = new Set(calls.map((c) => c.id));
  return original.filter((c) => ids.has((c as { id?: string }).id ?? ''));
}

function splitToolCalls(calls: readonly ToolCall[]) {
  const valid: ToolCall[] = [];
  const invalid: Record<string, unknown>[] = [];
  for (const call of calls) {
    if (isObjectJson(call.arguments)) valid.push(call);
    else {
      invalid.push({
        type: 'invalid_tool_call',
        id: call.id,
        name: call.name,
        args: call.arguments,
        error: 'The arguments are not a JSON object.',
      });
    }
  }
  return { valid: toolCallsFromMem(valid), invalid };
}

function isObjectJson(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
