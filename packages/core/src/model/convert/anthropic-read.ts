import type { ContentPart, ToolCall } from '../message.ts';
import { anthropicBlockToMem, memPartToAnthropic } from './anthropic-blocks.ts';
import { ANTHROPIC_META as META } from './anthropic-meta.ts';
import { toolResultBlock } from './anthropic-write.ts';
import { memInputFail, wireInputFail } from './conversion-error.ts';
import { type MessageFields, setMetadata } from './convert-options.ts';
import { isPlainObject } from './deep-equal.ts';
import { isPlainJson } from './plain-json.ts';
import { toolCallPositions } from './tool-call-order.ts';
import {
  extraFields,
  faithfulPart,
  fieldResidue,
  isRecord,
  type WireRecord,
} from './wire-fields.ts';

const FORMAT = 'anthropic';
const fromFail = wireInputFail(FORMAT);
const toFail = memInputFail(FORMAT);

/**
 * Reads one Anthropic message: one mem message, or several for a user message with tool results.
 * Roles are `user` and `assistant` only: Anthropic takes system content in the top-level `system`.
 */
export function readMessage(
  wire: WireRecord,
  path: string,
  callNames: Map<string, string>,
): MessageFields[] {
  switch (wire.role) {
    case 'assistant':
      return [readAssistant(wire.content, `${path}.content`, callNames)];
    case 'user':
      return readUser(wire.content, `${path}.content`, callNames);
    case 'system':
      throw fromFail(
        `${path}.role`,
        'is "system", which the Anthropic API refuses inside messages',
        'Pass system content as the top-level field: fromAnthropicMessages({ system, messages }).',
      );
    default:
      throw fromFail(
        `${path}.role`,
        `is ${typeof wire.role === 'string' ? JSON.stringify(wire.role) : `a ${typeof wire.role}`}`,
        'Use "user" or "assistant" (system content goes in the top-level `system` field).',
      );
  }
}

export function readSystem(content: unknown, path: string): MessageFields {
  const fields: MessageFields = { role: 'system', content: '' };
  if (typeof content === 'string') fields.content = content;
  else readParts(fields, blocksAt(content, path));
  return fields;
}

function readAssistant(
  content: unknown,
  path: string,
  callNames: Map<string, string>,
): MessageFields {
  const fields: MessageFields = { role: 'assistant', content: '' };
  if (typeof content === 'string') {
    fields.content = content;
    return fields;
  }
  const blocks = blocksAt(content, path);
  const calls: ToolCall[] = [];
  const callExtras: Record<string, WireRecord> = {};
  blocks.forEach((block, j) => {
    if (block.type !== 'tool_use') return;
    const call = readToolUse(block, `${path}[${j}]`);
    callNames.set(call.id, call.name);
    const extra = extraFields(block, ['type', 'id', 'name', 'input']);
    if (extra !== undefined) callExtras[String(calls.length)] = extra;
    calls.push(call);
  });
  readParts(
    fields,
    blocks.filter((block) => block.type !== 'tool_use'),
  );
  if (calls.length > 0) fields.toolCalls = calls;
  if (Object.keys(callExtras).length > 0) setMetadata(fields, META.toolCalls, callExtras);
  setMetadata(
    fields,
    META.toolUseAt,
    toolCallPositions(blocks.map((block) => block.type === 'tool_use')),
  );
  return fields;
}

function readToolUse(block: WireRecord, path: string): ToolCall {
  const { id, name, input } = block;
  if (typeof id !== 'string' || id.length === 0) {
    throw fromFail(
      `${path}.id`,
      'is not a non-empty string',
      'Keep the id the model gave the tool_use block.',
    );
  }
  if (typeof name !== 'string')
    throw fromFail(`${path}.name`, 'is not a string', 'Keep the tool name.');
  if (!isPlainObject(input)) {
    throw fromFail(
      `${path}.input`,
      `is ${Array.isArray(input) ? 'an array' : input === null ? 'null' : `a ${typeof input}`}, not an object`,
      'Anthropic tool inputs are JSON objects; wrap other values, e.g. {"value": ...}.',
    );
  }
  if (!isPlainJson(input)) {
    throw fromFail(
      `${path}.input`,
      'is not plain JSON',
      'Use only JSON values (no undefined in arrays, NaN, Date...).',
    );
  }
  return { id, name, arguments: JSON.stringify(input) };
}

function readUser(content: unknown, path: string, callNames: Map<string, string>): MessageFields[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const group: MessageFields[] = [];
  let run: WireRecord[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const fields: MessageFields = { role: 'user', content: '' };
    readParts(fields, run);
    group.push(fields);
    run = [];
  };
  blocksAt(content, path).forEach((block, j) => {
    if (block.type !== 'tool_result') run.push(block);
    else {
      flush();
      group.push(readToolResult(block, `${path}[${j}]`, callNames));
    }
  });
  flush();
  return group.length > 0 ? group : [{ role: 'user', content: [] }];
}

function readToolResult(
  block: WireRecord,
  path: string,
  callNames: Map<string, string>,
): MessageFields {
  const id = block.tool_use_id;
  if (typeof id !== 'string') {
    throw fromFail(
      `${path}.tool_use_id`,
      'is missing or not a string',
      'Set it to the id of the tool_use it answers.',
    );
  }
  // A tool_use converted in an earlier step is not in `callNames`: the name stays unknown.
  const toolName = callNames.get(id);
  const fields: MessageFields = { role: 'tool', content: '', toolCallId: id };
  if (toolName !== undefined) fields.toolName = toolName;
  if (typeof block.content === 'string') fields.content = block.content;
  else if (block.content !== undefined)
    readParts(fields, blocksAt(block.content, `${path}.content`));
  if (typeof block.is_error === 'boolean') fields.isError = block.is_error;
  setMetadata(fields, META.block, fieldResidue(block, toolResultBlock(fields, path)));
  return fields;
}

function blocksAt(value: unknown, path: string): WireRecord[] {
  if (!Array.isArray(value)) {
    throw fromFail(
      path,
      'is neither a string nor an array of blocks',
      'Pass text or a list of content blocks.',
    );
  }
  return value.map((block: unknown, j) => {
    if (isRecord(block) && typeof block.type === 'string') return block;
    throw fromFail(
      `${path}[${j}]`,
      'is not a content block with a type',
      'Each block needs a "type" field.',
    );
  });
}

function readParts(fields: MessageFields, blocks: readonly WireRecord[]): void {
  const parts: ContentPart[] = [];
  const extras: Record<string, WireRecord> = {};
  blocks.forEach((block, j) => {
    const read = faithfulPart(FORMAT, block, anthropicBlockToMem, (p) =>
      memPartToAnthropic(p, fields.role, '', toFail),
    );
    parts.push(read.part);
    if (read.extra !== undefined) extras[String(j)] = read.extra;
  });
  fields.content = parts;
  if (Object.keys(extras).length > 0) setMetadata(fields, META.parts, extras);
}
