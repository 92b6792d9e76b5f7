import { messageText, type ToolCall } from '../message.ts';
import { AI_SDK_META as META } from './ai-sdk-meta.ts';
import { restoredToolOutput } from './ai-sdk-output.ts';
import { dataField, memPartToAiSdk, textToData } from './ai-sdk-parts.ts';
import { memInputFail } from './conversion-error.ts';
import type { MessageFields } from './convert-options.ts';
import { interleave } from './tool-call-order.ts';
import {
  applyResidue,
  indexedExtras,
  isRecord,
  mergeExtra,
  type WireRecord,
} from './wire-fields.ts';

const toFail = memInputFail('ai-sdk');

/** A system, user or assistant mem message as an AI SDK message; undefined when nothing is left. */
export function messageToAiSdk(m: MessageFields, path: string): WireRecord | undefined {
  if (m.role === 'system') {
    if (typeof m.content === 'string') return { role: 'system', content: m.content };
    const hasText = m.content.some((part) => part.type === 'text');
    return hasText || m.content.length === 0
      ? { role: 'system', content: messageText(m) }
      : undefined;
  }
  if (m.role === 'tool') {
    throw toFail(path, 'is a tool message', 'Write tool messages with toolResultPart.');
  }
  const calls = m.toolCalls ?? [];
  if (typeof m.content === 'string' && calls.length === 0)
    return { role: m.role, content: m.content };
  const parts =
    typeof m.content === 'string'
      ? m.content.length > 0
        ? [{ type: 'text', text: m.content }]
        : []
      : partsOf(m);
  if (m.role === 'user' || calls.length === 0)
    return parts === undefined ? undefined : { role: m.role, content: parts };
  const extras = indexedExtras(m.metadata?.[META.toolCalls]);
  const toolParts = calls.map((call, j) => mergeExtra(toolCallPart(call), extras(j)));
  const positions = typeof m.content === 'string' ? undefined : m.metadata?.[META.toolCallAt];
  return { role: 'assistant', content: interleave(parts ?? [], toolParts, positions) };
}

function partsOf(m: MessageFields): WireRecord[] | undefined {
  if (typeof m.content === 'string' || m.role === 'system' || m.role === 'tool') return undefined;
  const role = m.role;
  const extras = indexedExtras(m.metadata?.[META.parts]);
  const binary = m.metadata?.[META.binary];
  const out: WireRecord[] = [];
  m.content.forEach((part, j) => {
    const wire = memPartToAiSdk(part, role);
    if (wire === undefined) return;
    if (part.type === 'provider') {
      out.push(wire);
      return;
    }
    const merged = mergeExtra(wire, extras(j));
    const field = dataField(merged.type);
    const kind = isRecord(binary) ? binary[String(j)] : undefined;
    if (field !== undefined && kind !== undefined && typeof merged[field] === 'string') {
      merged[field] = textToData(merged[field], kind);
    }
    out.push(merged);
  });
  return out.length === 0 && m.content.length > 0 ? undefined : out;
}

function toolCallPart(call: ToolCall): WireRecord {
  let input: unknown;
  try {
    input = JSON.parse(call.arguments);
  } catch {
    input = call.arguments;
  }
  return { type: 'tool-call', toolCallId: call.id, toolName: call.name, input };
}

/** The `tool-result` part of a mem tool message. */
export function toolResultPart(m: MessageFields, path: string): WireRecord {
  if (m.toolCallId === undefined) {
    throw toFail(
      `${path}.toolCallId`,
      'is missing on a tool message',
      'Set it to the id of the call it answers.',
    );
  }
  if (m.toolName === undefined) {
    throw toFail(
      `${path}.toolName`,
      'is missing on a tool message',
      'AI SDK tool results name their tool; set it.',
    );
  }
  const part: WireRecord = {
    type: 'tool-result',
    toolCallId: m.toolCallId,
    toolName: m.toolName,
    output: restoredToolOutput(m, path),
  };
  return applyResidue(part, m.metadata?.[META.part]);
}

/** The verbatim AI SDK parts an assistant message marked `mem.ai-sdk.role: 'tool'` carries. */
export function toolMessageItems(m: MessageFields): WireRecord[] {
  if (typeof m.content === 'string') return [];
  return m.content.flatMap((part) =>
    part.type === 'provider' && part.format === 'ai-sdk' && isRecord(part.value)
      ? [part.value]
      : [],
  );
}
