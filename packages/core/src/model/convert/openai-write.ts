import type { ToolCall } from '../message.ts';
import { memInputFail } from './conversion-error.ts';
import type { MessageFields } from './convert-options.ts';
import { OPENAI_META as META } from './openai-meta.ts';
import { memPartToOpenAI } from './openai-parts.ts';
import { indexedExtras, mergeExtra, type WireRecord } from './wire-fields.ts';

const toFail = memInputFail('openai');

/** One mem message as a Chat Completions message; undefined when nothing is left to send. */
export function messageToOpenAI(m: MessageFields, path: string): WireRecord | undefined {
  switch (m.role) {
    case 'system':
    case 'user': {
      const content = contentToOpenAI(m, path);
      if (content === undefined) return undefined;
      const role =
        m.role === 'user'
          ? 'user'
          : m.metadata?.[META.role] === 'developer'
            ? 'developer'
            : 'system';
      const out: WireRecord = { role, content };
      if (m.name !== undefined) out.name = m.name;
      return out;
    }
    case 'assistant': {
      const content = contentToOpenAI(m, path);
      const calls = m.toolCalls ?? [];
      if (content === undefined && calls.length === 0) return undefined;
      const empty = content === undefined || content.length === 0;
      const refusal = m.metadata?.[META.refusal] === true && typeof content === 'string';
      const out: WireRecord = refusal
        ? { role: 'assistant', content: null, refusal: content }
        : { role: 'assistant', content: empty && calls.length > 0 ? null : content };
      if (m.name !== undefined) out.name = m.name;
      if (calls.length > 0)
        out.tool_calls = calls.map((call) => toolCallToOpenAI(call, m.metadata));
      return out;
    }
    case 'tool': {
      if (m.toolCallId === undefined) {
        throw toFail(
          `${path}.toolCallId`,
          'is missing on a tool message',
          'Set it to the id of the call it answers.',
        );
      }
      return { role: 'tool', tool_call_id: m.toolCallId, content: contentToOpenAI(m, path) ?? '' };
    }
  }
}

function toolCallToOpenAI(
  call: ToolCall,
  metadata: Record<string, unknown> | undefined,
): WireRecord {
  const custom = metadata?.[META.customToolCalls];
  if (Array.isArray(custom) && custom.includes(call.id)) {
    return { id: call.id, type: 'custom', custom: { name: call.name, input: call.arguments } };
  }
  return {
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  };
}

/** The OpenAI content of a message; undefined when every part was left out. */
function contentToOpenAI(m: MessageFields, path: string): string | WireRecord[] | undefined {
  if (typeof m.content === 'string') return m.content;
  const extras = indexedExtras(m.metadata?.[META.parts]);
  const out: WireRecord[] = [];
  m.content.forEach((part, j) => {
    const partPath = `${path}.content[${j}]`;
    const wire = memPartToOpenAI(part, m.role, partPath, toFail);
    if (wire !== undefined) out.push(part.type === 'provider' ? wire : mergeExtra(wire, extras(j)));
  });
  return out.length === 0 && m.content.length > 0 ? undefined : out;
}
