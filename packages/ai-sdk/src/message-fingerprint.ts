import { type ContentPart, type Message, messageText } from '@mem/core';

function canonicalJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/** Non-text parts by kind and a sample of their payload (files can be megabytes). */
function partKey(part: ContentPart): string[] {
  switch (part.type) {
    case 'text':
      return [];
    case 'reasoning':
      return [`reasoning:${part.text}`];
    case 'image':
      return [`image:${sample(part.image)}`];
    case 'file':
      return [`file:${part.mediaType}:${sample(part.data)}`];
    default:
      return [`provider:${part.format}`];
  }
}

function sample(data: string): string {
  return data.length <= 96 ? data : `${data.length}:${data.slice(0, 48)}:${data.slice(-48)}`;
}

/**
 * What identifies a message across the two routes it can take into a session: converted from a
 * model response after a call, and converted from the prompt the AI SDK sends in the next step.
 * Ids, timestamps, token counts and provider metadata differ between the two and are left out;
 * tool-call arguments are compared as JSON values, not as text.
 */
export function fingerprint(m: Message): string {
  const text = plainTextOf(m);
  if (text !== undefined) return textFingerprint(m.role, text);
  return JSON.stringify([
    m.role,
    messageText(m),
    typeof m.content === 'string' ? [] : m.content.flatMap(partKey),
    (m.toolCalls ?? []).map((c) => [c.id, c.name, canonicalJson(c.arguments)]),
    m.toolCallId ?? null,
    m.isError === true,
  ]);
}

/**
 * The text of a message of text only (no other part, no tool call, no tool result, no error),
 * whose fingerprint is `textFingerprint(role, text)`; undefined for any other message (whose
 * fingerprint equals no such one).
 */
export function plainTextOf(m: Message): string | undefined {
  if (m.toolCalls?.length || m.toolCallId !== undefined || m.isError === true) return undefined;
  return textOnly(m.content);
}

/** The text of content with no part but text (joined as `messageText` joins it), else undefined. */
function textOnly(content: Message['content']): string | undefined {
  if (typeof content === 'string') return content;
  let out = '';
  for (const part of content) {
    if (part.type !== 'text') return undefined;
    out = out.length === 0 ? part.text : `${out}\n${part.text}`;
  }
  return out;
}

/**
 * `fingerprint` of a message of text only (no other part, no tool call, no tool result), built
 * without the array: what a long re-sent history is compared by, message by message.
 */
export function textFingerprint(role: string, text: string): string {
  return `[${JSON.stringify(role)},${JSON.stringify(text)},[],[],null,false]`;
}
