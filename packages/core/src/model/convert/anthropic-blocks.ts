import type { ContentPart, FilePart, ImagePart, Role } from '../message.ts';
import type { Fail } from './conversion-error.ts';
import { base64ToText, isUrlLike, parseDataUrl, textToBase64 } from './data-encoding.ts';
import { isRecord, type WireRecord } from './wire-fields.ts';

/** An Anthropic content block as a typed mem part, or undefined when mem has no type for it. */
export function anthropicBlockToMem(block: WireRecord): ContentPart | undefined {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? { type: 'text', text: block.text } : undefined;
    case 'image':
      return imageToMem(block.source);
    case 'document':
      return documentToMem(block);
    case 'thinking':
      if (typeof block.thinking !== 'string' || typeof block.signature !== 'string')
        return undefined;
      return { type: 'reasoning', text: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return typeof block.data === 'string'
        ? { type: 'reasoning', text: '', redacted: block.data }
        : undefined;
    default:
      return undefined;
  }
}

function imageToMem(source: unknown): ImagePart | undefined {
  if (!isRecord(source)) return undefined;
  if (source.type === 'url' && typeof source.url === 'string')
    return { type: 'image', image: source.url };
  if (
    source.type === 'base64' &&
    typeof source.data === 'string' &&
    typeof source.media_type === 'string'
  ) {
    return { type: 'image', image: source.data, mediaType: source.media_type };
  }
  return undefined;
}

function documentToMem(block: WireRecord): FilePart | undefined {
  const source = block.source;
  if (!isRecord(source)) return undefined;
  let part: FilePart | undefined;
  if (source.type === 'url' && typeof source.url === 'string') {
    part = { type: 'file', data: source.url, mediaType: 'application/pdf' };
  } else if (
    source.type === 'base64' &&
    typeof source.data === 'string' &&
    typeof source.media_type === 'string'
  ) {
    part = { type: 'file', data: source.data, mediaType: source.media_type };
  } else if (
    source.type === 'text' &&
    typeof source.data === 'string' &&
    source.media_type === 'text/plain'
  ) {
    part = { type: 'file', data: textToBase64(source.data), mediaType: 'text/plain' };
  }
  if (part !== undefined && typeof block.title === 'string') part.filename = block.title;
  return part;
}

/**
 * A mem part as an Anthropic block in a `role` message. Undefined for parts Anthropic has no place for (reasoning
 * without a signature, other formats' provider parts); throws for media it cannot take.
 */
export function memPartToAnthropic(
  part: ContentPart,
  role: Role,
  path: string,
  fail: Fail,
): WireRecord | undefined {
  if (role === 'system' && (part.type === 'image' || part.type === 'file')) {
    throw fail(
      path,
      `is ${part.type === 'image' ? 'an image' : 'a file'} part; Anthropic system prompts take text only`,
      'Move the media to a user message, or drop the part.',
    );
  }
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', source: imageSource(part.image, part.mediaType, path, fail) };
    case 'file':
      return documentBlock(part, path, fail);
    case 'reasoning':
      if (part.redacted !== undefined) return { type: 'redacted_thinking', data: part.redacted };
      if (part.signature === undefined) return undefined;
      return { type: 'thinking', thinking: part.text, signature: part.signature };
    case 'provider':
      return part.format === 'anthropic' && isRecord(part.value) ? part.value : undefined;
  }
}

function imageSource(
  image: string,
  mediaType: string | undefined,
  path: string,
  fail: Fail,
): WireRecord {
  const inline = parseDataUrl(image);
  if (inline !== undefined)
    return { type: 'base64', media_type: inline.mediaType, data: inline.data };
  if (isUrlLike(image)) return { type: 'url', url: image };
  if (mediaType === undefined) {
    throw fail(
      `${path}.mediaType`,
      'is missing on a base64 image',
      'Set mediaType (e.g. "image/png") or give the image as an https: or data: URL.',
    );
  }
  return { type: 'base64', media_type: mediaType, data: image };
}

function documentBlock(part: FilePart, path: string, fail: Fail): WireRecord {
  const inline = parseDataUrl(part.data);
  const data = inline?.data ?? part.data;
  const mediaType = part.mediaType.toLowerCase();
  let block: WireRecord;
  if (mediaType.startsWith('image/')) {
    block = { type: 'image', source: imageSource(part.data, part.mediaType, path, fail) };
    return block;
  }
  if (mediaType === 'application/pdf') {
    const remote = inline === undefined && isUrlLike(part.data);
    const source = remote
      ? { type: 'url', url: part.data }
      : { type: 'base64', media_type: 'application/pdf', data };
    block = { type: 'document', source };
  } else if (mediaType === 'text/plain' && (inline !== undefined || !isUrlLike(part.data))) {
    block = {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: decodeText(data, path, fail) },
    };
  } else {
    throw fail(
      `${path}.mediaType`,
      `is ${JSON.stringify(part.mediaType)}; Anthropic documents take inline or URL PDFs and inline text/plain`,
      'Convert the file to PDF or text, or drop the part.',
    );
  }
  if (part.filename !== undefined) block.title = part.filename;
  return block;
}

function decodeText(base64: string, path: string, fail: Fail): string {
  try {
    return base64ToText(base64);
  } catch (cause) {
    throw fail(`${path}.data`, 'is not base64 UTF-8 text', 'Encode the text as base64.', cause);
  }
}
