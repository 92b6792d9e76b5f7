import type { ContentPart } from '../message.ts';
import { memInputFail } from './conversion-error.ts';
import type { MessageFields } from './convert-options.ts';
import { type LayoutEntry, RESPONSES_META as META } from './responses-meta.ts';
import { memPartToInput } from './responses-parts.ts';
import {
  applyResidue,
  indexedExtras,
  isRecord,
  mergeExtra,
  type WireRecord,
} from './wire-fields.ts';

const fail = memInputFail('openai-responses');

/** The items of one mem message; empty when nothing is left to send. */
export function messageItems(m: MessageFields, path: string): WireRecord[] {
  switch (m.role) {
    case 'system':
    case 'user': {
      const item = contentItem(m);
      return item === undefined ? [] : [applyResidue(item, m.metadata?.[META.item])];
    }
    case 'assistant':
      return assistantItems(m, readLayout(m));
    case 'tool': {
      if (m.toolCallId === undefined) {
        throw fail(
          `${path}.toolCallId`,
          'is missing on a tool message',
          'Set it to the id of the call it answers.',
        );
      }
      return [applyResidue(toolItem(m), m.metadata?.[META.item])];
    }
  }
}

/** A user or system message as a message item; undefined when every part was left out. */
export function contentItem(m: MessageFields): WireRecord | undefined {
  const content = partsOrText(m, m.content, 0);
  if (content === undefined) return undefined;
  const role =
    m.role === 'user' ? 'user' : m.metadata?.[META.role] === 'developer' ? 'developer' : 'system';
  return { role, content };
}

/** A tool message as a `function_call_output` item. */
export function toolItem(m: MessageFields): WireRecord {
  return {
    type: 'function_call_output',
    call_id: m.toolCallId,
    output: partsOrText({ ...m, role: 'user' }, m.content, 0) ?? '',
  };
}

/**
 * The items of an assistant message: by its layout (how it was read), from part `partStart` and
 * call `callStart` on; without one, its text as one message, its verbatim Responses items, then
 * one `function_call` per tool call.
 */
export function assistantItems(
  m: MessageFields,
  layout: readonly LayoutEntry[] | undefined,
  partStart = 0,
  callStart = 0,
): WireRecord[] {
  const parts = typeof m.content === 'string' ? undefined : m.content;
  const calls = m.toolCalls ?? [];
  if (layout === undefined) return defaultAssistantItems(m);
  const out: WireRecord[] = [];
  let p = partStart;
  let c = callStart;
  for (const entry of layout) {
    if (entry.item === 'call') {
      const call = calls[c++]!;
      const item = {
        type: 'function_call',
        call_id: call.id,
        name: call.name,
        arguments: call.arguments,
      };
      out.push(applyResidue(item, entry.residue));
    } else if (entry.item === 'verbatim') {
      const part = parts?.[p++];
      if (part?.type === 'provider' && isRecord(part.value)) out.push(part.value);
    } else {
      const first = parts?.[p];
      const content =
        entry.text === true && entry.parts === 1 && first?.type === 'text'
          ? first.text
          : typeof m.content === 'string'
            ? m.content
            : (partsOrText(m, parts?.slice(p, p + entry.parts) ?? [], p) ?? []);
      p += entry.parts;
      out.push(applyResidue({ role: 'assistant', content }, entry.residue));
    }
  }
  return out;
}

function defaultAssistantItems(m: MessageFields): WireRecord[] {
  const out: WireRecord[] = [];
  let text: string | undefined = typeof m.content === 'string' ? m.content : undefined;
  const flush = () => {
    if (text !== undefined && (text.length > 0 || (m.toolCalls ?? []).length === 0))
      out.push({ role: 'assistant', content: text });
    text = undefined;
  };
  if (typeof m.content !== 'string') {
    for (const part of m.content) {
      if (part.type === 'text') text = text === undefined ? part.text : `${text}\n${part.text}`;
      else if (
        part.type === 'provider' &&
        part.format === 'openai-responses' &&
        isRecord(part.value)
      ) {
        flush();
        out.push(part.value);
      }
    }
  }
  flush();
  for (const call of m.toolCalls ?? []) {
    out.push({
      type: 'function_call',
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
    });
  }
  return out;
}

/** The content as a string, or its parts written for the message's role (extras re-applied). */
function partsOrText(
  m: MessageFields,
  content: string | readonly ContentPart[],
  offset: number,
): string | WireRecord[] | undefined {
  if (typeof content === 'string') return content;
  const extras = indexedExtras(m.metadata?.[META.parts]);
  const out: WireRecord[] = [];
  content.forEach((part, j) => {
    const wire = memPartToInput(part, m.role);
    if (wire !== undefined)
      out.push(part.type === 'provider' ? wire : mergeExtra(wire, extras(offset + j)));
  });
  return out.length === 0 && content.length > 0 ? undefined : out;
}

/** The layout in metadata when it fits the message's parts and calls, else undefined. */
function readLayout(m: MessageFields): LayoutEntry[] | undefined {
  const layout = m.metadata?.[META.layout];
  if (!Array.isArray(layout)) return undefined;
  const parts = typeof m.content === 'string' ? 1 : m.content.length;
  let p = 0;
  let c = 0;
  for (const entry of layout as unknown[]) {
    if (!isRecord(entry)) return undefined;
    if (entry.item === 'call') c++;
    else if (entry.item === 'verbatim') {
      const part = typeof m.content === 'string' ? undefined : m.content[p];
      if (part?.type !== 'provider') return undefined;
      p++;
    } else if (
      entry.item === 'message' &&
      Number.isInteger(entry.parts) &&
      (entry.parts as number) >= 0
    )
      p += entry.parts as number;
    else return undefined;
  }
  if (c !== (m.toolCalls ?? []).length) return undefined;
  if (typeof m.content === 'string' ? p > 1 : p !== parts) return undefined;
  return layout as LayoutEntry[];
}
