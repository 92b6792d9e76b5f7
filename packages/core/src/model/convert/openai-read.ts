import type { ContentPart, ToolCall } from '../message.ts';
import { memInputFail, wireInputFail } from './conversion-error.ts';
import { type MessageFields, setMetadata } from './convert-options.ts';
import { OPENAI_META as META } from './openai-meta.ts';
import { memPartToOpenAI, openAIPartToMem } from './openai-parts.ts';
import { faithfulPart, isRecord, type WireRecord } from './wire-fields.ts';

const FORMAT = 'openai';
const fromFail = wireInputFail(FORMAT);
const toFail = memInputFail(FORMAT);

/** Reads one Chat Completions message; `callNames` maps the tool call ids seen to tool names. */
export function readMessage(
  wire: WireRecord,
  path: string,
  callNames: Map<string, string>,
): MessageFields {
  const role = wire.role;
  switch (role) {
    case 'system':
    case 'developer':
    case 'user': {
      const fields: MessageFields = { role: role === 'user' ? 'user' : 'system', content: '' };
      readContent(fields, wire.content, `${path}.content`);
      if (role === 'developer') setMetadata(fields, META.role, 'developer');
      if (typeof wire.name === 'string') fields.name = wire.name;
      return fields;
    }
    case 'assistant':
      return readAssistant(wire, path, callNames);
    case 'tool':
      return readTool(wire, path, callNames);
    case 'function':
      throw fromFail(
        `${path}.role`,
        'is "function", the deprecated function-calling role',
        'Use tool calling instead: a tool message whose tool_call_id answers an assistant tool_calls entry.',
      );
    default:
      throw fromFail(
        `${path}.role`,
        `is ${JSON.stringify(role)}, not a Chat Completions role`,
        'Use one of system, developer, user, assistant, tool.',
      );
  }
}

function readAssistant(
  wire: WireRecord,
  path: string,
  callNames: Map<string, string>,
): MessageFields {
  const fields: MessageFields = { role: 'assistant', content: '' };
  if (wire.content !== undefined && wire.content !== null)
    readContent(fields, wire.content, `${path}.content`);
  if (typeof wire.name === 'string') fields.name = wire.name;
  readRefusal(fields, wire);
  if (wire.tool_calls === undefined) return fields;
  if (!Array.isArray(wire.tool_calls)) {
    throw fromFail(
      `${path}.tool_calls`,
      'is not an array',
      'Pass the tool calls as a list, or leave the field out.',
    );
  }
  const custom: string[] = [];
  const calls = wire.tool_calls.map((raw: unknown, j) =>
    readToolCall(raw, `${path}.tool_calls[${j}]`, custom),
  );
  for (const call of calls) callNames.set(call.id, call.name);
  if (calls.length > 0) fields.toolCalls = calls;
  if (custom.length > 0) setMetadata(fields, META.customToolCalls, custom);
  return fields;
}

/** A refusal with no other content becomes the message text (so every format and summary sees it). */
function readRefusal(fields: MessageFields, wire: WireRecord): void {
  const { refusal } = wire;
  if (typeof refusal !== 'string' || refusal.length === 0 || fields.content !== '') return;
  if (wire.content !== undefined && wire.content !== null && wire.content !== '') return;
  fields.content = refusal;
  setMetadata(fields, META.refusal, true);
}

function readToolCall(raw: unknown, path: string, custom: string[]): ToolCall {
  if (!isRecord(raw))
    throw fromFail(path, 'is not an object', 'Each tool call needs an id, a type and a function.');
  const id = raw.id;
  if (typeof id !== 'string' || id.length === 0) {
    throw fromFail(
      `${path}.id`,
      'is not a non-empty string',
      'Keep the id the model gave the call.',
    );
  }
  if (raw.type === 'function') {
    const fn = raw.function;
    if (!isRecord(fn) || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
      throw fromFail(
        `${path}.function`,
        'needs a string name and string arguments',
        'Pass arguments as JSON text.',
      );
    }
    return { id, name: fn.name, arguments: fn.arguments };
  }
  if (raw.type === 'custom') {
    const tool = raw.custom;
    if (!isRecord(tool) || typeof tool.name !== 'string' || typeof tool.input !== 'string') {
      throw fromFail(
        `${path}.custom`,
        'needs a string name and string input',
        'Pass the input as text.',
      );
    }
    custom.push(id);
    return { id, name: tool.name, arguments: tool.input };
  }
  throw fromFail(`${path}.type`, `is ${JSON.stringify(raw.type)}`, 'Use "function" or "custom".');
}

function readTool(wire: WireRecord, path: string, callNames: Map<string, string>): MessageFields {
  const id = wire.tool_call_id;
  if (typeof id !== 'string') {
    throw fromFail(
      `${path}.tool_call_id`,
      'is missing or not a string',
      'Set it to the id of the assistant tool call this message answers.',
    );
  }
  // A call converted in an earlier step is not in `callNames`: the name stays unknown.
  const toolName = callNames.get(id);
  const fields: MessageFields = { role: 'tool', content: '', toolCallId: id };
  if (toolName !== undefined) fields.toolName = toolName;
  readContent(fields, wire.content, `${path}.content`);
  return fields;
}

function readContent(fields: MessageFields, value: unknown, path: string): void {
  if (typeof value === 'string') {
    fields.content = value;
    return;
  }
  if (!Array.isArray(value)) {
    throw fromFail(
      path,
      'is neither a string nor an array of content parts',
      'Pass text as a string or as parts such as {"type":"text","text":"..."}.',
    );
  }
  const content: ContentPart[] = [];
  const extras: Record<string, WireRecord> = {};
  value.forEach((item: unknown, j) => {
    if (!isRecord(item) || typeof item.type !== 'string') {
      throw fromFail(
        `${path}[${j}]`,
        'is not a content part with a type',
        'Each part needs a "type" field.',
      );
    }
    const read = faithfulPart(FORMAT, item, openAIPartToMem, (p) =>
      memPartToOpenAI(p, fields.role, path, toFail),
    );
    content.push(read.part);
    if (read.extra !== undefined) extras[String(j)] = read.extra;
  });
  fields.content = content;
  if (Object.keys(extras).length > 0) setMetadata(fields, META.parts, extras);
}
