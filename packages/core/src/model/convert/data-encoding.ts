/** True when `value` starts with a URL scheme (`https:`, `data:`, `gs:`...); base64 never does. */
export function isUrlLike(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(value);
}

/** The media type and base64 payload of a `data:<type>;base64,<data>` URL, else undefined. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (match === null) return undefined;
  return { mediaType: match[1]!, data: match[2]! };
}

export function toDataUrl(mediaType: string, base64: string): string {
  return `data:${mediaType};base64,${base64}`;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

/** Decodes base64; throws on malformed input. */
export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function textToBase64(text: string): string {
  return bytesToBase64(new TextEncoder().encode(text));
}

/** Decodes base64 UTF-8 text; throws on malformed base64 or invalid UTF-8. */
export function base64ToText(base64: string): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(base64ToBytes(base64));
}
