import { MemValidationError } from '@mem/core';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function refuse(field: string, what: string): never {
  throw new MemValidationError(
    field,
    `[mem/langchain] ${field} must be ${what}; build the message with LangChain's message classes (new HumanMessage(...), new AIMessage(...), new ToolMessage(...)) or fix the field.`,
  );
}

/**
 * Checks the shape of the fields a LangChain message of `type` carries, before they are read:
 * whatever an app hands over (a parsed request body, an edited message) is refused with a
 * `MemValidationError` naming the field, never a `TypeError` further down.
 */
export function checkLangChainFields(message: object, type: string, field: string): void {
  const m = message as Record<string, unknown>;
  const optional = (key: string, ok: (v: unknown) => boolean, what: string) => {
    if (m[key] !== undefined && !ok(m[key])) refuse(`${field}.${key}`, what);
  };
  const content = m.content;
  if (typeof content !== 'string' && !Array.isArray(content)) {
    refuse(`${field}.content`, 'a string or a list of content blocks');
  }
  optional('id', (v) => typeof v === 'string', 'a string');
  optional('name', (v) => typeof v === 'string', 'a string');
  optional('additional_kwargs', isRecord, 'an object');
  optional('response_metadata', isRecord, 'an object');
  if (type === 'ai') {
    optional('tool_calls', Array.isArray, 'a list of tool calls');
    optional('invalid_tool_calls', Array.isArray, 'a list');
    optional('usage_metadata', isRecord, 'an object');
    const calls = (m.tool_calls ?? []) as unknown[];
    calls.forEach((call, j) => {
      if (!isRecord(call)) refuse(`${field}.tool_calls[${j}]`, 'a tool call { id, name, args }');
      if (call.args !== undefined && !isRecord(call.args)) {
        refuse(`${field}.tool_calls[${j}].args`, 'an object of arguments');
      }
    });
  }
  if (type === 'tool') {
    optional('status', (v) => v === 'success' || v === 'error', '"success" or "error"');
    optional('metadata', isRecord, 'an object');
  }
}
