import type { ContentPart, ImagePart } from '@mem/core';
import { sameValue } from './same-value.ts';

/** LangChain message content: a string or a list of content blocks. */
export type LangChainContent = string | Record<string, unknown>[];

const DETAILS = new Set(['auto', 'low', 'high']);

/**
 * One LangChain content block as a mem part: `text`; `image_url` (OpenAI style, URL or `data:`
 * URL, with `detail`); the standard `image` block (`url`, or base64 `data` with `mimeType`);
 * `reasoning`. Anything else has no mem part (it is kept verbatim, see `contentFromLangChain`).
 */
function blockToPart(block: Record<string, unknown>): ContentPart | undefined {
  if (block.type === 'text' && typeof block.text === 'string') {
    return { type: 'text', text: block.text };
  }
  if (block.type === 'image_url') {
    const source = block.image_url;
    if (typeof source === 'string') return { type: 'image', image: source };
    if (typeof source === 'object' && source !== null) {
      const { url, detail } = source as Record<string, unknown>;
      if (typeof url !== 'string') return undefined;
      const part: ImagePart = { type: 'image', image: url };
      if (typeof detail === 'string' && DETAILS.has(detail)) {
        part.detail = detail as 'auto' | 'low' | 'high';
      }
      return part;
    }
    return undefined;
  }
  if (block.type === 'image') {
    const mediaType = block.mimeType ?? block.mime_type;
    const data = block.url ?? block.data;
    if (typeof data !== 'string') return undefined;
    const part: ImagePart = { type: 'image', image: data };
    if (typeof mediaType === 'string') part.mediaType = mediaType;
    return part;
  }
  if (block.type === 'reasoning' && typeof block.reasoning === 'string') {
    return { type: 'reasoning', text: block.reasoning };
  }
  return undefined;
}

/** A mem part as a LangChain content block (undefined: no LangChain block for it). */
function partToBlock(part: ContentPart): Record<string, unknown> | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image': {
      if (part.mediaType !== undefined && !/^(https?:|data:)/.test(part.image)) {
        return { type: 'image', data: part.image, mimeType: part.mediaType };
      }
      const url =
        part.detail === undefined ? { url: part.image } : { url: part.image, detail: part.detail };
      return { type: 'image_url', image_url: url };
    }
    case 'file':
      return /^(https?:|data:)/.test(part.data)
        ? { type: 'file', url: part.data, mimeType: part.mediaType }
        : { type: 'file', data: part.data, mimeType: part.mediaType };
    case 'reasoning':
      return { type: 'reasoning', reasoning: part.text };
    default:
      return undefined;
  }
}

/** mem content as LangChain content: a string stays a string. */
export function contentToLangChain(content: string | readonly ContentPart[]): LangChainContent {
  if (typeof content === 'string') return content;
  const out: Record<string, unknown>[] = [];
  for (const part of content) {
    const block = partToBlock(part);
    if (block !== undefined) out.push(block);
  }
  return out;
}

/**
 * LangChain content as mem content, and whether it converts back exactly. When it does not
 * (a block mem has no part for, extra keys, another image style), the caller keeps the original
 * content beside the message so that converting back is lossless.
 */
export function contentFromLangChain(content: unknown): {
  content: string | ContentPart[];
  exact: boolean;
} {
  if (typeof content === 'string') return { content, exact: true };
  if (!Array.isArray(content)) return { content: '', exact: false };
  const parts: ContentPart[] = [];
  for (const block of content) {
    if (typeof block === 'string') {
      parts.push({ type: 'text', text: block });
      continue;
    }
    if (typeof block !== 'object' || block === null) continue;
    const part = blockToPart(block as Record<string, unknown>);
    if (part !== undefined) parts.push(part);
  }
  return { content: parts, exact: sameValue(contentToLangChain(parts), content) };
}
