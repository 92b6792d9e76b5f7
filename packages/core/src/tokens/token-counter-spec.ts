import type { Message } from '../model/message.ts';

/**
 * Counts prompt tokens. `countMessage` includes the per-message chat overhead, so a prompt
 * costs `sum(countMessage(m)) + replyPrimingTokens` — the same figure as gpt-tokenizer's
 * `countChatCompletionTokens` (OpenAI's published counting rules).
 */
export interface TokenCounter {
  readonly encoding: string;
  /** Tokens added once per request: the primed assistant reply. */
  readonly replyPrimingTokens: number;
  countText(text: string): number;
  /** Token ids of `text`, when the counter can produce them (used to split text by tokens). */
  encode?(text: string): number[];
  /** Text of token ids; `decode(encode(t)) === t`. */
  decode?(tokens: readonly number[]): string;
  /** Tokens one message costs in a prompt, chat overhead and tool-call arguments included. */
  countMessage(message: Message): number;
  /**
   * Resolves once the counter can count synchronously (e.g. its tokenizer data is loaded). The
   * engine, `Memory` and `MemoryManager` await it before they first count; call it yourself
   * before counting directly where data cannot be loaded synchronously (a browser bundle).
   */
  ready?(): Promise<void>;
}
