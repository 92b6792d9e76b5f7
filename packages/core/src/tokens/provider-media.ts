import type { FilePart, ImagePart, ProviderPart, TextPart } from '../model/message.ts';

type Value = Record<string, unknown>;

function isValue(value: unknown): value is Value {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const IMAGE_ITEMS: readonly unknown[] = ['image-file-id', 'image-file-reference'];
const FILE_ITEMS: readonly unknown[] = ['file-id', 'file-reference', 'media'];

/**
 * What a verbatim AI SDK part holding media counts as: AI SDK v7 files with tagged data
 * (`{ type: 'reference' | 'text' | ... }`), provider references, reasoning files, file and
 * image ids in tool outputs. Their JSON says nothing about their size, so they are charged as
 * the image or file they stand for, as typed parts are (inline text files as their text; a file
 * keeps its `mediaType` for `mediaTokens`). Undefined for other parts, counted as their JSON.
 */
export function mediaStandIn(part: ProviderPart): TextPart | ImagePart | FilePart | undefined {
  const { value } = part;
  if (part.format !== 'ai-sdk' || !isValue(value)) return undefined;
  const mediaType = typeof value.mediaType === 'string' ? value.mediaType : '';
  const file = (): FilePart => ({ type: 'file', data: '', mediaType });
  switch (value.type) {
    case 'image':
      return { type: 'image', image: '' };
    case 'file':
    case 'reasoning-file': {
      const data = value.data;
      if (isValue(data) && data.type === 'text' && typeof data.text === 'string')
        return { type: 'text', text: data.text };
      if (typeof data === 'string' && mediaType.startsWith('text/'))
        return { type: 'text', text: data };
      return file();
    }
    default:
      if (IMAGE_ITEMS.includes(value.type)) return { type: 'image', image: '' };
      if (FILE_ITEMS.includes(value.type)) return file();
      return undefined;
  }
}
