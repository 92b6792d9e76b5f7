import type { ContentPart, ToolCall } from '../message.ts';
import { AI_SDK_META as META } from './ai-sdk-meta.ts';
import { readToolOutput } from './ai-sdk-output.ts';
import {
  aiSdkPartToMem,
  type BinaryKind,
  dataField,
  dataToText,
  memPartToAiSdk,
} from './ai-sdk-parts.ts';
import { wireInputFail } from './conversion-error.ts';
import { type MessageFields, setMetadata } from './convert-options.ts';
import { isPlainJson } from './plain-json.ts';
import { toolCallPositions } from './tool-call-order.ts';
import { extraFields, faithfulPart, isRecord, type WireRecord } from './wire-fields.ts';

const fromFail = wireInputFail('ai-sdk');

/** Reads a system, user or assistant message. `calls` collects the tool call ids seen. */
export function readMessage(wire: WireRecord, path: string, calls: Set<string>): MessageFields {
  const { role, content } = wire;
  if (role === 'system') {
    if (typeof content !== 'string') {
      throw fromFail(
        `${path}.content`,
        'is not a string',
        'AI SDK system messages hold text only.',
      );
    }
    return { role, content };
  }
  if (role !== 'user' && role !== 'assistant') {
    throw fromFail(
      `${path}.role`,
      `is ${JSON.stringify(role)}`,
      'Use "system", "user", "assistant" or "tool".',
    );
  }
  const fields: MessageFields = { role, content: '' };
  if (typeof content === 'string') {
    fields.content = content;
    return fields;
  }
  const items = itemsAt(content, `${path}.content`);
  const isCall = items.map((item) => role === 'assistant' && item.type === 'tool-call');
  const toolCalls: ToolCall[] = [];
  const callExtras: Record<string, WireRecord> = {};
  items.forEach((item, j) => {
    if (!isCall[j]) return;
    const call = readToolCall(item, `${path}.content[${j}]`);
    calls.add(call.id);
    const extra = extraFields(item, ['type', 'toolCallId', 'toolName', 'input']);
    if (extra !== undefined) callExtras[String(toolCalls.length)] = extra;
    toolCalls.push(call);
  });
  readParts(
    fields,
    items.filter((_, j) => !isCall[j]),
    role,
  );
  if (toolCalls.length > 0) fields.toolCalls = toolCalls;
  if (Object.keys(callExtras).length > 0) setMetadata(fields, META.toolCalls, callExtras);
  setMetadata(fields, META.toolCallAt, toolCallPositions(isCall));
  return fields;
}

function readToolCall(item: WireRecord, path: string): ToolCall {
  const { toolCallId, toolName, input } = item;
  if (typeof toolCallId !== 'string' || toolCallId.length === 0) {
    throw fromFail(
      `${path}.toolCallId`,
      'is not a non-empty string',
      'Keep the id the model gave the call.',
    );
  }
  if (typeof toolName !== 'string')
    throw fromFail(`${path}.toolName`, 'is not a string', 'Keep the tool name.');
  return { id: toolCallId, name: toolName, arguments: argumentsText(input, `${path}.input`) };
}

/** Tool input as JSON text; a string that is not JSON (an unparsable model output) stays as is. */
function argumentsText(input: unknown, path: string): string {
  if (typeof input === 'string' && !isJsonText(input)) return input;
  if (!isPlainJson(input)) {
    throw fromFail(path, 'is not plain JSON', 'Use only JSON values (no undefined, NaN, Date...).');
  }
  return JSON.stringify(input);
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function readParts(
  fields: MessageFields,
  items: readonly WireRecord[],
  role: 'user' | 'assistant',
): void {
  const parts: ContentPart[] = [];
  const extras: Record<string, WireRecord> = {};
  const binary: Record<string, BinaryKind> = {};
  items.forEach((item, j) => {
    const field = dataField(item.type);
    const data = field === undefined ? undefined : dataToText(item[field]);
    const wire = field === undefined || data === undefined ? item : { ...item, [field]: data.text };
    const read = faithfulPart('ai-sdk', wire, aiSdkPartToMem, (p) => memPartToAiSdk(p, role));
    if (read.part.type === 'provider') {
      parts.push({ type: 'provider', format: 'ai-sdk', value: item });
      return;
    }
    parts.push(read.part);
    if (read.extra !== undefined) extras[String(j)] = read.extra;
    if (data?.kind !== undefined) binary[String(j)] = data.kind;
  });
  fields.content = parts;
  if (Object.keys(extras).length > 0) setMetadata(fields, META.parts, extras);
  if (Object.keys(binary).length > 0) setMetadata(fields, META.binary, binary);
}

/**
 * Reads a tool message: each `tool-result` becomes a mem tool message; other parts (approval
 * responses) become assistant messages marked to go back into the tool message. A result needs
 * no call in the same batch (agent loops convert the call in an earlier step), so the call ids
 * seen (`_calls`) are not checked.
 */
export function readToolMessage(
  wire: WireRecord,
  path: string,
  _calls: Set<string>,
): MessageFields[] {
  const group = itemsAt(wire.content, `${path}.content`).map((item, j): MessageFields => {
    if (item.type === 'tool-result') return readToolResult(item, `${path}.content[${j}]`);
    return {
      role: 'assistant',
      content: [{ type: 'provider', format: 'ai-sdk', value: item }],
      metadata: { [META.role]: 'tool' },
    };
  });
  return group.length > 0
    ? group
    : [{ role: 'assistant', content: [], metadata: { [META.role]: 'tool' } }];
}

function readToolResult(item: WireRecord, path: string): MessageFields {
  const { toolCallId, toolName } = item;
  // Its call may have been converted in an earlier step (an agent loop): not checked here.
  if (typeof toolCallId !== 'string' || toolCallId.length === 0) {
    throw fromFail(
      `${path}.toolCallId`,
      `is ${JSON.stringify(toolCallId)}, not a tool call id`,
      'Set it to the toolCallId of the tool-call part it answers.',
    );
  }
  if (typeof toolName !== 'string')
    throw fromFail(`${path}.toolName`, 'is not a string', 'Keep the tool name.');
  const fields: MessageFields = { role: 'tool', content: '', toolCallId, toolName };
  readToolOutput(fields, item.output, `${path}.output`);
  const extra = extraFields(item, ['type', 'toolCallId', 'toolName', 'output']);
  if (extra !== undefined) setMetadata(fields, META.part, { set: extra });
  return fields;
}

function itemsAt(value: unknown, path: string): WireRecord[] {
  if (!Array.isArray(value))
    throw fromFail(path, 'is not an array of parts', 'Pass a list of parts.');
  return value.map((item: unknown, j) => {
    if (isRecord(item) && typeof item.type === 'string') return item;
    throw fromFail(`${path}[${j}]`, 'is not a part with a type', 'Each part needs a "type" field.');
  });
}
