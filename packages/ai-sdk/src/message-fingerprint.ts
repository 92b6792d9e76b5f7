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
  return JSON.stringify([
    m.role,
    messageText(m),
    typeof m.content === 'string' ? [] : m.content.flatMap(partKey),
    (m.toolCalls ?? []).map((c) => [c.id, c.name, canonicalJson(c.arguments)]),
    m.toolCallId ?? null,
    m.isError === true,
  ]);
}
