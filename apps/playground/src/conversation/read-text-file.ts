import { open } from 'node:fs/promises';

/** Largest conversation file the playground reads. */
export const MAX_CONVERSATION_BYTES = 32 * 1024 * 1024;
/** Largest profile file the playground reads. */
export const MAX_PROFILE_BYTES = 1024 * 1024;

const CHUNK = 64 * 1024;

/**
 * Why a file could not be read as text. `unreadable`: the system refused (`message` is the
 * cause, e.g. `no such file`); otherwise `message` completes a sentence about the file
 * ("<file> is larger than ...").
 */
export class TextFileError extends Error {
  readonly unreadable: boolean;

  constructor(message: string, options: { cause?: unknown; unreadable?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.name = 'TextFileError';
    this.unreadable = options.unreadable ?? false;
  }
}

/**
 * Reads a text file of at most `maxBytes` without ever holding more than `maxBytes + 1` bytes:
 * a regular file's size is checked before reading, and a device or pipe (`/dev/zero`, `<(...)`)
 * is read until the limit is passed. A UTF-8 byte order mark is dropped; UTF-16 (with a BOM, or
 * JSON whose first character has a zero high byte) is decoded. @throws TextFileError
 */
export async function readTextFile(path: string, maxBytes: number): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new TextFileError(describeErrno(error), { cause: error, unreadable: true });
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw new TextFileError('is a directory', { unreadable: true });
    if (stat.isFile() && stat.size > maxBytes) throw tooLarge(maxBytes, stat.size);
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= maxBytes) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
    }
    if (total > maxBytes) throw tooLarge(maxBytes, undefined);
    return decodeText(Buffer.concat(chunks, total));
  } catch (error) {
    if (error instanceof TextFileError) throw error;
    throw new TextFileError(describeErrno(error), { cause: error, unreadable: true });
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** UTF-8 (BOM dropped) or UTF-16 LE/BE text. @throws TextFileError for anything else. */
export function decodeText(bytes: Buffer): string {
  const utf16 = utf16Order(bytes);
  let text: string;
  if (utf16 !== undefined) {
    if (bytes.length % 2 !== 0) {
      throw new TextFileError(
        `looks like UTF-16 (${utf16.toUpperCase()}) but has an odd number of bytes; save it as UTF-8.`,
      );
    }
    const copy = Buffer.from(bytes);
    if (utf16 === 'be') copy.swap16();
    text = copy.toString('utf16le');
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new TextFileError(
        'is not UTF-8 text (it holds bytes that are not valid UTF-8); save it as UTF-8.',
      );
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const nul = text.indexOf('\u0000');
  if (nul !== -1) {
    throw new TextFileError(
      `holds a NUL character at offset ${nul}: it is binary (or UTF-32) data, not a UTF-8 text file.`,
    );
  }
  return text;
}

/** `le`/`be` for a UTF-16 BOM or a first ASCII character with a zero byte beside it. */
function utf16Order(bytes: Buffer): 'le' | 'be' | undefined {
  if (bytes.length < 2) return undefined;
  const [a, b] = [bytes[0]!, bytes[1]!];
  if (a === 0xff && b === 0xfe) return 'le';
  if (a === 0xfe && b === 0xff) return 'be';
  // JSON starts with an ASCII character ({, [, whitespace); in UTF-16 its other byte is 0.
  if (bytes.length >= 4 && bytes[2] !== 0 && bytes[3] === 0 && a !== 0 && b === 0) return 'le';
  if (bytes.length >= 4 && bytes[2] === 0 && bytes[3] !== 0 && a === 0 && b !== 0) return 'be';
  return undefined;
}

function tooLarge(maxBytes: number, size: number | undefined): TextFileError {
  const actual = size === undefined ? 'larger than' : `${formatBytes(size)}, over`;
  return new TextFileError(
    `is ${actual} the limit of ${formatBytes(maxBytes)}; the playground reads files up to that size.`,
  );
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

function describeErrno(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return code ?? (error instanceof Error ? error.message : String(error));
}
