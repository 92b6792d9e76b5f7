import type { ContentPart, FilePart, ImagePart, Role } from '../message.ts';
import type { Fail } from './conversion-error.ts';
import { isUrlLike, parseDataUrl, toDataUrl } from './data-encoding.ts';
import { isRecord, type WireRecord } from './wire-fields.ts';

const AUDIO_FORMATS: Readonly<Record<string, 'wav' | 'mp3'>> = {
  'audio/wav': 'wav',
  'audio/wave': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};
const AUDIO_MEDIA_TYPES = { wav: 'audio/wav', mp3: 'audio/mpeg' } as const;
const DETAILS: readonly unknown[] = ['auto', 'low', 'high'];

/** An OpenAI content part as a typed mem part, or undefined when mem has no type for it. */
export function openAIPartToMem(wire: WireRecord): ContentPart | undefined {
  switch (wire.type) {
    case 'text':
      return typeof wire.text === 'string' ? { type: 'text', text: wire.text } : undefined;
    case 'image_url': {
      const image = wire.image_url;
      if (!isRecord(image) || typeof image.url !== 'string') return undefined;
      const inline = parseDataUrl(image.url);
      const part: ImagePart = inline
        ? { type: 'image', image: inline.data, mediaType: inline.mediaType }
        : { type: 'image', image: image.url };
      if (DETAILS.includes(image.detail)) part.detail = image.detail as 'auto' | 'low' | 'high';
      return part;
    }
    case 'input_audio': {
      const audio = wire.input_audio;
      if (!isRecord(audio) || typeof audio.data !== 'string') return undefined;
      if (audio.format !== 'wav' && audio.format !== 'mp3') return undefined;
      return { type: 'file', data: audio.data, mediaType: AUDIO_MEDIA_TYPES[audio.format] };
    }
    case 'file': {
      const file = wire.file;
      if (!isRecord(file) || typeof file.file_data !== 'string') return undefined;
      const parsed = parseDataUrl(file.file_data);
      if (parsed === undefined) return undefined;
      const part: FilePart = { type: 'file', data: parsed.data, mediaType: parsed.mediaType };
      if (typeof file.filename === 'string') part.filename = file.filename;
      return part;
    }
    default:
      return undefined;
  }
}

/**
 * A mem part as an OpenAI content part of a `role` message. Undefined for parts OpenAI has no
 * place for (reasoning, other formats' provider parts); throws for media it cannot take as
 * given, and for media outside user messages.
 */
export function memPartToOpenAI(
  part: ContentPart,
  role: Role,
  path: string,
  fail: Fail,
): WireRecord | undefined {
  if (role !== 'user' && (part.type === 'image' || part.type === 'file')) {
    throw fail(
      path,
      `is ${part.type === 'image' ? 'an image' : 'a file'} part in a ${role} message; OpenAI takes media in user messages only`,
      'Move the media to a user message, or drop the part before converting.',
    );
  }
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image': {
      const image: WireRecord = { url: imageUrl(part, path, fail) };
      if (part.detail !== undefined) image.detail = part.detail;
      return { type: 'image_url', image_url: image };
    }
    case 'file':
      return filePart(part, path, fail);
    case 'reasoning':
      return undefined;
    case 'provider':
      return part.format === 'openai' && isRecord(part.value) ? part.value : undefined;
  }
}

function imageUrl(part: ImagePart, path: string, fail: Fail): string {
  if (isUrlLike(part.image)) return part.image;
  if (part.mediaType === undefined) {
    throw fail(
      `${path}.mediaType`,
      'is missing on a base64 image',
      'Set mediaType (e.g. "image/png") or give the image as an https: or data: URL.',
    );
  }
  return toDataUrl(part.mediaType, part.image);
}

function filePart(part: FilePart, path: string, fail: Fail): WireRecord {
  const remote = isUrlLike(part.data) && !part.data.startsWith('data:');
  if (remote) {
    throw fail(
      `${path}.data`,
      'is a URL, but OpenAI file and audio parts take inline data only',
      'Download the file and pass it as base64 data or a data: URL.',
    );
  }
  const format = AUDIO_FORMATS[part.mediaType.toLowerCase()];
  if (format !== undefined) {
    const data = parseDataUrl(part.data)?.data ?? part.data;
    return { type: 'input_audio', input_audio: { data, format } };
  }
  const fileData = part.data.startsWith('data:') ? part.data : toDataUrl(part.mediaType, part.data);
  const file: WireRecord = { file_data: fileData };
  if (part.filename !== undefined) file.filename = part.filename;
  return { type: 'file', file };
}
