import type { ContentPart, FilePart, ImagePart, ReasoningPart } from '../message.ts';
import type { Fail } from './conversion-error.ts';
import { base64ToBytes, bytesToBase64, isUrlLike } from './data-encoding.ts';
import { isRecord, type WireRecord } from './wire-fields.ts';

const DETAILS: readonly unknown[] = ['auto', 'low', 'high'];

/**
 * How binary data was given, so it can be given back the same way: bytes, a Buffer, an
 * ArrayBuffer or a URL, each bare (v6 and v7) or in v7's tagged form (`tagged-*`: `{ type:
 * 'data', data }`, `{ type: 'url', url }`; `tagged` alone is `{ type: 'data', data: string }`).
 */
export type BinaryKind =
  | 'bytes'
  | 'buffer'
  | 'arraybuffer'
  | 'url'
  | 'tagged'
  | 'tagged-bytes'
  | 'tagged-buffer'
  | 'tagged-arraybuffer'
  | 'tagged-url';

function hasOnlyKeys(value: WireRecord, keys: readonly string[]): boolean {
  return Object.entries(value).every(([key, v]) => v === undefined || keys.includes(key));
}

/** Bare data content (`string | Uint8Array | ArrayBuffer | Buffer | URL`) as text. */
function bareDataToText(value: unknown): { text: string; kind?: BinaryKind } | undefined {
  if (typeof value === 'string') return { text: value };
  if (value instanceof URL) return { text: value.href, kind: 'url' };
  if (value instanceof ArrayBuffer)
    return { text: bytesToBase64(new Uint8Array(value)), kind: 'arraybuffer' };
  if (value instanceof Uint8Array) {
    const buffer = typeof Buffer !== 'undefined' && Buffer.isBuffer(value);
    return { text: bytesToBase64(value), kind: buffer ? 'buffer' : 'bytes' };
  }
  return undefined;
}

/**
 * Data content as mem's string form: bare (`string | Uint8Array | ArrayBuffer | Buffer | URL`)
 * or v7 tagged (`{ type: 'data', data }`, `{ type: 'url', url }` without other fields).
 * Undefined for anything else (provider references, tagged text), which stays verbatim.
 */
export function dataToText(value: unknown): { text: string; kind?: BinaryKind } | undefined {
  const bare = bareDataToText(value);
  if (bare !== undefined || !isRecord(value)) return bare;
  if (value.type === 'data' && hasOnlyKeys(value, ['type', 'data'])) {
    const inner = value.data instanceof URL ? undefined : bareDataToText(value.data);
    if (inner === undefined) return undefined;
    const kind = inner.kind === undefined ? 'tagged' : (`tagged-${inner.kind}` as BinaryKind);
    return { text: inner.text, kind };
  }
  if (value.type === 'url' && value.url instanceof URL && hasOnlyKeys(value, ['type', 'url']))
    return { text: value.url.href, kind: 'tagged-url' };
  return undefined;
}

/** The inverse of `dataToText`; unknown kinds give the string back. */
export function textToData(text: string, kind: unknown): unknown {
  switch (kind) {
    case 'url':
      return new URL(text);
    case 'arraybuffer':
      return base64ToBytes(text).buffer;
    case 'buffer':
      return typeof Buffer !== 'undefined' ? Buffer.from(base64ToBytes(text)) : base64ToBytes(text);
    case 'bytes':
      return base64ToBytes(text);
    case 'tagged':
      return { type: 'data', data: text };
    case 'tagged-url':
      return { type: 'url', url: new URL(text) };
    case 'tagged-bytes':
    case 'tagged-buffer':
    case 'tagged-arraybuffer':
      return { type: 'data', data: textToData(text, kind.slice('tagged-'.length)) };
    default:
      return text;
  }
}

/** The field of a user/assistant part that may hold binary data. */
export function dataField(type: unknown): 'image' | 'data' | undefined {
  return type === 'image' ? 'image' : type === 'file' ? 'data' : undefined;
}

function providerEntry(wire: WireRecord, provider: string): WireRecord | undefined {
  const options = wire.providerOptions;
  const entry = isRecord(options) ? options[provider] : undefined;
  return isRecord(entry) ? entry : undefined;
}

/** An AI SDK message part (binary data already as text) as a typed mem part, if mem has one. */
export function aiSdkPartToMem(wire: WireRecord): ContentPart | undefined {
  switch (wire.type) {
    case 'text':
      return typeof wire.text === 'string' ? { type: 'text', text: wire.text } : undefined;
    case 'image': {
      if (typeof wire.image !== 'string') return undefined;
      const part: ImagePart = { type: 'image', image: wire.image };
      if (typeof wire.mediaType === 'string') part.mediaType = wire.mediaType;
      const detail = providerEntry(wire, 'openai')?.imageDetail;
      if (DETAILS.includes(detail)) part.detail = detail as 'auto' | 'low' | 'high';
      return part;
    }
    case 'file': {
      if (typeof wire.data !== 'string' || typeof wire.mediaType !== 'string') return undefined;
      const part: FilePart = { type: 'file', data: wire.data, mediaType: wire.mediaType };
      if (typeof wire.filename === 'string') part.filename = wire.filename;
      return part;
    }
    case 'reasoning': {
      if (typeof wire.text !== 'string') return undefined;
      const part: ReasoningPart = { type: 'reasoning', text: wire.text };
      const anthropic = providerEntry(wire, 'anthropic');
      if (typeof anthropic?.signature === 'string') part.signature = anthropic.signature;
      if (typeof anthropic?.redactedData === 'string') part.redacted = anthropic.redactedData;
      return part;
    }
    default:
      return undefined;
  }
}

/**
 * A mem part as an AI SDK user or assistant message part. Undefined for parts the role has no
 * place for (reasoning in user messages, other formats' provider parts). Images in assistant
 * messages become file parts, as the AI SDK has no assistant image part. Anthropic reasoning
 * signatures and OpenAI image detail go to the `providerOptions` the AI SDK providers read.
 */
export function memPartToAiSdk(
  part: ContentPart,
  role: 'user' | 'assistant',
): WireRecord | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image': {
      if (role === 'assistant')
        return { type: 'file', data: part.image, mediaType: part.mediaType ?? 'image/*' };
      const out: WireRecord = { type: 'image', image: part.image };
      if (part.mediaType !== undefined) out.mediaType = part.mediaType;
      if (part.detail !== undefined) out.providerOptions = { openai: { imageDetail: part.detail } };
      return out;
    }
    case 'file': {
      const out: WireRecord = { type: 'file', data: part.data, mediaType: part.mediaType };
      if (part.filename !== undefined) out.filename = part.filename;
      return out;
    }
    case 'reasoning': {
      if (role === 'user') return undefined;
      const out: WireRecord = { type: 'reasoning', text: part.text };
      const anthropic: WireRecord = {};
      if (part.signature !== undefined) anthropic.signature = part.signature;
      if (part.redacted !== undefined) anthropic.redactedData = part.redacted;
      if (Object.keys(anthropic).length > 0) out.providerOptions = { anthropic };
      return out;
    }
    case 'provider':
      return part.format === 'ai-sdk' && isRecord(part.value) ? part.value : undefined;
  }
}

/** An item of a `content` tool output as a typed mem part, if mem has one. */
export function outputItemToMem(item: WireRecord): ContentPart | undefined {
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? { type: 'text', text: item.text } : undefined;
    case 'image-data':
      if (typeof item.data !== 'string' || typeof item.mediaType !== 'string') return undefined;
      return { type: 'image', image: item.data, mediaType: item.mediaType };
    case 'image-url':
      return typeof item.url === 'string' ? { type: 'image', image: item.url } : undefined;
    case 'file-data': {
      if (typeof item.data !== 'string' || typeof item.mediaType !== 'string') return undefined;
      const part: FilePart = { type: 'file', data: item.data, mediaType: item.mediaType };
      if (typeof item.filename === 'string') part.filename = item.filename;
      return part;
    }
    case 'file-url':
      if (typeof item.url !== 'string' || typeof item.mediaType !== 'string') return undefined;
      return { type: 'file', data: item.url, mediaType: item.mediaType };
    default:
      return undefined;
  }
}

/** A mem part as an item of a `content` tool output; undefined for parts it has no place for. */
export function memPartToOutputItem(
  part: ContentPart,
  path: string,
  fail: Fail,
): WireRecord | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      if (isUrlLike(part.image)) return { type: 'image-url', url: part.image };
      if (part.mediaType === undefined) {
        throw fail(
          `${path}.mediaType`,
          'is missing on a base64 image',
          'Set mediaType, e.g. "image/png".',
        );
      }
      return { type: 'image-data', data: part.image, mediaType: part.mediaType };
    case 'file': {
      if (isUrlLike(part.data))
        return { type: 'file-url', url: part.data, mediaType: part.mediaType };
      const out: WireRecord = { type: 'file-data', data: part.data, mediaType: part.mediaType };
      if (part.filename !== undefined) out.filename = part.filename;
      return out;
    }
    case 'reasoning':
      return undefined;
    case 'provider':
      return part.format === 'ai-sdk' && isRecord(part.value) ? part.value : undefined;
  }
}
