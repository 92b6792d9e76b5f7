import type { TokenCounter } from '../../tokens/token-counter.ts';

/**
 * A toy byte-level tokenizer: every 3 UTF-8 bytes are one token, so tokens routinely end inside
 * a multi-byte character. Its `decode` is stateless (a fresh `TextDecoder` per call) and yields
 * U+FFFD for a partial character, like most decoders other than gpt-tokenizer's.
 */
export function createByteCounter(bytesPerToken = 3): TokenCounter {
  const encoder = new TextEncoder();
  const encode = (text: string): number[] => {
    const bytes = encoder.encode(text);
    const tokens: number[] = [];
    for (let i = 0; i < bytes.length; i += bytesPerToken) {
      // Token id: the length in the top bits, then the bytes.
      let id = 0;
      const end = Math.min(bytes.length, i + bytesPerToken);
      for (let j = i; j < end; j++) id = id * 256 + (bytes[j] as number);
      tokens.push((end - i) * 2 ** (8 * bytesPerToken) + id);
    }
    return tokens;
  };
  const decode = (tokens: readonly number[]): string => {
    const bytes: number[] = [];
    for (const token of tokens) {
      const size = Math.floor(token / 2 ** (8 * bytesPerToken));
      let id = token % 2 ** (8 * bytesPerToken);
      const part: number[] = [];
      for (let j = 0; j < size; j++) {
        part.unshift(id % 256);
        id = Math.floor(id / 256);
      }
      bytes.push(...part);
    }
    return new TextDecoder().decode(Uint8Array.from(bytes));
  };
  return {
    encoding: `bytes${bytesPerToken}`,
    replyPrimingTokens: 0,
    countText: (text) => encode(text).length,
    encode,
    decode,
    countMessage: () => 0,
  };
}

/** A counter that can only count: one token per word-ish piece (used by the word fallback). */
export function createWordCounter(): TokenCounter {
  return {
    encoding: 'words',
    replyPrimingTokens: 0,
    countText: (text) => text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)?.length ?? 0,
    countMessage: () => 0,
  };
}
