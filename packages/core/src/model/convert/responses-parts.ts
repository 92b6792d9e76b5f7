import type { ContentPart, ImagePart, Role } from '../message.ts';
import { isUrlLike, parseDataUrl, toDataUrl } from './data-encoding.ts';
import { extraFields, faithfulPart, isRecord, type WireRecord } from './wire-fields.ts';

const FORMAT = 'openai-responses';
const DETAILS: readonly unknown[] = ['auto', 'low', 'high'];

/** A content part read from an item: typed when mem can rebuild it, else verbatim. */
export interface ReadPart {
  part: ContentPart;
  extra?: WireRecord;
}

/**
 * Reads one content part. `output_text` becomes a text part whatever its annotations (they are
 * kept as extra fields); inputs map when mapping back gives the same part; the rest is verbatim.
 */
export function readPart(wire: WireRecord): ReadPart {
  if (wire.type === 'output_text' && typeof wire.text === 'string') {
    const extra = extraFields(wire, ['type', 'text']);
    const part: ContentPart = { type: 'text', text: wire.text };
    return extra === undefined ? { part } : { part, extra };
  }
  return faithfulPart(FORMAT, wire, inputPartToMem, (p) => memPartToInput(p, 'user'));
}

function inputPartToMem(wire: WireRecord): ContentPart | undefined {
  switch (wire.type) {
    case 'input_text':
      return typeof wire.text === 'string' ? { type: 'text', text: wire.text } : undefined;
    case 'input_image': {
      if (typeof wire.image_url !== 'string' || !DETAILS.includes(wire.detail)) return undefined;
      const inline = parseDataUrl(wire.image_url);
      const part: ImagePart = inline
        ? { type: 'image', image: inline.data, mediaType: inline.mediaType }
        : { type: 'image', image: wire.image_url };
      part.detail = wire.detail as 'auto' | 'low' | 'high';
      return part;
    }
    case 'input_file': {
      const name = typeof wire.filename === 'string' ? { filename: wire.filename } : {};
      if (typeof wire.file_data === 'string') {
        const parsed = parseDataUrl(wire.file_data);
        if (parsed === undefined) return undefined;
        return { type: 'file', data: parsed.data, mediaType: parsed.mediaType, ...name };
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * A mem part as a Responses content part of a `role` message (assistant text is `output_text`).
 * Undefined for parts the Responses API has no place for (reasoning, other formats' provider
 * parts, media in assistant messages, images without a media type).
 */
export function memPartToInput(part: ContentPart, role: Role): WireRecord | undefined {
  switch (part.type) {
    case 'text':
      return role === 'assistant'
        ? { type: 'output_text', text: part.text, annotations: [] }
        : { type: 'input_text', text: part.text };
    case 'image': {
      if (role === 'assistant') return undefined;
      let url = part.image;
      if (!isUrlLike(url)) {
        if (part.mediaType === undefined) return undefined;
        url = toDataUrl(part.mediaType, url);
      }
      return { type: 'input_image', image_url: url, detail: part.detail ?? 'auto' };
    }
    case 'file': {
      if (role === 'assistant') return undefined;
      const name = part.filename === undefined ? {} : { filename: part.filename };
      if (isUrlLike(part.data) && !part.data.startsWith('data:'))
        return { type: 'input_file', file_url: part.data, ...name };
      const data = part.data.startsWith('data:') ? part.data : toDataUrl(part.mediaType, part.data);
      return { type: 'input_file', file_data: data, ...name };
    }
    case 'reasoning':
      return undefined;
    case 'provider':
      return part.format === FORMAT && isRecord(part.value) ? part.value : undefined;
  }
}
