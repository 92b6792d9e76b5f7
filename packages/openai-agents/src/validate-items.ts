import { MemError, MemValidationError } from '@mem/core';
import { type AgentInputItem, protocol } from '@openai/agents';
import { plainJsonCopy } from './plain-json-copy.ts';

/** A zod schema of the installed Agents SDK, as far as validation reads it. */
interface ItemSchema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> };
  };
}

/** What a valid item of each kind looks like, for error messages. */
const HINTS: Record<string, string> = {
  user: "a user message is { role: 'user', content } with content a string or input_text / input_image / input_file parts",
  assistant:
    "an assistant message is { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] } (or refusal parts)",
  system: "a system message is { role: 'system', content } with content a string",
  function_call: 'a function_call item needs callId, name and arguments (JSON text), all strings',
  function_call_result:
    'a function_call_result item needs callId, name, status and output (a string, a text / image / file output, or input_* parts)',
};

/**
 * The SDK's own item schemas (`protocol` of `@openai/agents`, the ones its runner checks session
 * history with), by `type`. Message items have no required `type`: they go by `role`. A `type`
 * the installed SDK has no schema for (a newer item kind) is only checked to be plain JSON.
 */
const BY_TYPE: Record<string, ItemSchema | undefined> = {
  function_call: protocol.FunctionCallItem,
  function_call_result: protocol.FunctionCallResultItem,
  hosted_tool_call: protocol.HostedToolCallItem,
  computer_call: protocol.ComputerUseCallItem,
  computer_call_result: protocol.ComputerCallResultItem,
  shell_call: protocol.ShellCallItem,
  shell_call_output: protocol.ShellCallResultItem,
  apply_patch_call: protocol.ApplyPatchCallItem,
  apply_patch_call_output: protocol.ApplyPatchCallResultItem,
  tool_search_call: protocol.ToolSearchCallItem,
  tool_search_output: protocol.ToolSearchOutputItem,
  program: protocol.ProgramCallItem,
  program_output: protocol.ProgramCallResultItem,
  reasoning: protocol.ReasoningItem,
  compaction: protocol.CompactionItem,
  unknown: protocol.UnknownItem,
};
const ROLES = ['user', 'assistant', 'system', 'developer'];

/**
 * Checks every item of an `addItems` batch before anything is stored, and returns plain copies
 * to store. Throws a MemValidationError naming the first bad item's index and field.
 */
export function validateItems(items: unknown): AgentInputItem[] {
  if (!Array.isArray(items)) {
    throw new MemValidationError(
      'items',
      '[mem/openai-agents] addItems(items): items must be an array of Agents SDK items.',
    );
  }
  return items.map((item, i) => {
    try {
      return validateItem(item, i);
    } catch (error) {
      if (MemError.isInstance(error)) throw error;
      // A getter or proxy that throws while the item is read.
      throw new MemValidationError(
        `items[${i}]`,
        `[mem/openai-agents] addItems(items): items[${i}] could not be read (${String(error)}). Pass items as the Agents SDK produces them (plain JSON data); nothing of this batch was stored.`,
        { cause: error },
      );
    }
  });
}

function validateItem(item: unknown, i: number): AgentInputItem {
  const at = `items[${i}]`;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    const got = item === null ? 'null' : Array.isArray(item) ? 'an array' : `a ${typeof item}`;
    throw invalid(
      at,
      `must be an Agents SDK item object (e.g. { role: 'user', content: 'Hi' }), got ${got}`,
    );
  }
  const copy = plainJsonCopy(item, at) as Record<string, unknown>;
  const { type, role } = copy;
  if (type === undefined || type === 'message') {
    if (typeof role !== 'string' || !ROLES.includes(role)) {
      throw invalid(
        `${at}.role`,
        `must be 'user', 'assistant' or 'system' ('developer' is read as 'system') on a message item, got ${describe(role)}`,
      );
    }
    const as = role === 'developer' ? 'system' : role;
    check(protocol.MessageItem, { ...copy, role: as }, at, HINTS[as]!);
    return copy as unknown as AgentInputItem;
  }
  if (typeof type !== 'string') {
    throw invalid(
      `${at}.type`,
      `must be a string naming the item kind (e.g. 'function_call'), got ${describe(type)}`,
    );
  }
  const schema = Object.hasOwn(BY_TYPE, type) ? BY_TYPE[type] : undefined;
  if (schema !== undefined) {
    check(schema, copy, at, HINTS[type] ?? `a ${type} item must match the Agents SDK's schema`);
  }
  if (type === 'function_call' || type === 'function_call_result') {
    // mem pairs a call with its result by id, and names the tool of a call.
    if (copy.callId === '')
      throw invalid(`${at}.callId`, `is empty; ${HINTS[type]!}, callId not empty`);
    if (type === 'function_call' && copy.name === '') {
      throw invalid(`${at}.name`, `is empty; ${HINTS[type]!}, name not empty`);
    }
  }
  return copy as unknown as AgentInputItem;
}

function check(schema: ItemSchema, value: unknown, at: string, hint: string): void {
  const result = schema.safeParse(value);
  if (result.success) return;
  const issues = result.error?.issues ?? [];
  const first = issues[0];
  const field = `${at}${first === undefined ? '' : pathText(first.path)}`;
  const detail = issues
    .slice(0, 3)
    .map((issue) => `${at}${pathText(issue.path)}: ${issue.message}`)
    .join('; ');
  throw new MemValidationError(
    field,
    `[mem/openai-agents] addItems(items): ${detail || `${at} is invalid`}. Fix the item: ${hint}; nothing of this batch was stored.`,
  );
}

function invalid(field: string, what: string): MemValidationError {
  return new MemValidationError(
    field,
    `[mem/openai-agents] addItems(items): ${field} ${what}; nothing of this batch was stored.`,
  );
}

function pathText(path: ReadonlyArray<PropertyKey>): string {
  return path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  return value === null ? 'null' : `a ${typeof value}`;
}
