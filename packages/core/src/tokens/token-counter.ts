import { MemValidationError } from '../errors/errors.ts';
import type { ContentPart, CountedMessage, Message } from '../model/message.ts';
import { forEachBpeInput, type PieceSplitter } from './bounded-pieces.ts';
import { createClaudeTokenCounter } from './claude-token-counter.ts';
import {
  type LoadedEncoding,
  loadEncoding,
  loadEncodingSync,
  loadedEncoding,
  type TokenEncoding,
} from './load-encoding.ts';
import { modelCounting, OTHER_MODEL_MARGIN } from './model-counting.ts';
import { mediaStandIn } from './provider-media.ts';
import type { TokenCounter } from './token-counter-spec.ts';

export type { TokenEncoding } from './load-encoding.ts';

export type { TokenCounter } from './token-counter-spec.ts';

/** Per-message overhead (`<|start|>`, role separator, `<|end|>`), per OpenAI's rules. */
export const MESSAGE_OVERHEAD_TOKENS = 3;
/** Extra token for a message carrying `name`. */
export const NAME_OVERHEAD_TOKENS = 1;
/** Framing of each tool call (name/arguments wrapper). */
export const TOOL_CALL_OVERHEAD_TOKENS = 3;
/** Every reply is primed with `<|start|>assistant<|message|>`. */
export const REPLY_PRIMING_TOKENS = 3;

export interface TokenCounterOptions {
  /**
   * The model the prompt is for; picks how to count (see `modelCounting` and the README's table):
   * `gpt-4o`, `o3` → o200k_base; `gpt-4` → cl100k_base; `claude-*` (also Bedrock and Vertex ids)
   * → the Claude encoding (count after `await ready()`); any other id → o200k_base + 10 %.
   */
  model?: string;
  /** Force an encoding instead of deriving it from `model`. */
  encoding?: TokenEncoding;
  /**
   * Tokens charged for an image or file part, which text tokenizers cannot see. Default: 85 for
   * an image with `detail: 'low'`, 765 for other images (a 1024×1024 high-detail tile set), and
   * 1,000 for a non-text file. Text files (`text/*`) are counted as text. Verbatim AI SDK parts
   * that stand for media (v7 tagged file data, provider references) are charged the same way.
   */
  mediaTokens?: (part: ContentPart) => number;
}

// Special-token markers in user text (e.g. "<|endoftext|>") are counted as plain text, never rejected.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

const ENCODINGS: readonly string[] = ['o200k_base', 'cl100k_base'] satisfies TokenEncoding[];

function checkEncoding(encoding: TokenEncoding): TokenEncoding {
  if (!ENCODINGS.includes(encoding)) {
    throw new MemValidationError(
      'encoding',
      `[mem/core] unknown encoding ${JSON.stringify(encoding)}: use "o200k_base" or "cl100k_base"`,
    );
  }
  return encoding;
}

function defaultMediaTokens(part: ContentPart): number {
  if (part.type === 'image') return part.detail === 'low' ? 85 : 765;
  return 1000;
}

interface Tokenizer {
  readonly api: LoadedEncoding['api'];
  readonly splitter: PieceSplitter;
}

function tokenizerOf({ api, splitRegex }: LoadedEncoding): Tokenizer {
  return {
    api,
    splitter: {
      split: splitRegex,
      // ASCII tokens decode to plain strings: no partial characters, no decoder state.
      tokenLengths: (ascii) => api.encode(ascii, PLAIN_TEXT).map((t) => api.decode([t]).length),
    },
  };
}

/**
 * The default TokenCounter for the model the prompt is for (`options.model`; none: o200k_base).
 * OpenAI models count on gpt-tokenizer (below); Claude models on ai-tokenizer's Claude encoding
 * (`claude-token-counter.ts`: no `encode`/`decode`, and counts only after `await ready()`); other
 * models on o200k_base plus `OTHER_MODEL_MARGIN` (no `encode`/`decode`).
 *
 * OpenAI counting is linear in the text's length: text is
 * counted exactly like gpt-tokenizer's `countTokens`, except that a pre-tokenizer piece over 128
 * UTF-8 bytes (a run without separators) is counted in bounded sub-pieces, an estimate within a
 * few percent (see `bounded-pieces.ts`). `encode` cuts the same way, so
 * `encode(t).length === countText(t)` and `decode(encode(t)) === t`.
 *
 * The encoding's data is loaded on first use, not at import or here (see `load-encoding.ts`):
 * by `ready()`, or synchronously by the first count on Node. Where no synchronous load exists (a
 * browser or edge bundle), a count before `ready()` throws a MemError saying so.
 */
export function createTokenCounter(
  options: TokenCounterOptions = {},
): TokenCounter & { ready(): Promise<void> } {
  const mediaTokens = options.mediaTokens ?? defaultMediaTokens;
  if (options.encoding !== undefined)
    return createOpenAiCounter(checkEncoding(options.encoding), mediaTokens);
  const counting = modelCounting(options.model);
  if (counting === 'claude') return createClaudeTokenCounter(mediaTokens);
  if (counting === 'o200k_base+10%') {
    return withMargin(createOpenAiCounter('o200k_base', mediaTokens), counting);
  }
  return createOpenAiCounter(counting, mediaTokens);
}

/**
 * A count with `OTHER_MODEL_MARGIN` added (rounded up), for models mem has no tokenizer for.
 * It cannot encode: its counts are not token ids' counts.
 */
function withMargin(
  base: TokenCounter & { ready(): Promise<void> },
  encoding: string,
): TokenCounter & { ready(): Promise<void> } {
  const up = (n: number) => Math.ceil(n * (1 + OTHER_MODEL_MARGIN));
  return {
    encoding,
    replyPrimingTokens: base.replyPrimingTokens,
    countText: (text) => up(base.countText(text)),
    countMessage: (message) => up(base.countMessage(message)),
    ready: () => base.ready(),
  };
}

function createOpenAiCounter(
  encoding: TokenEncoding,
  mediaTokens: (part: ContentPart) => number,
): TokenCounter & { ready(): Promise<void> } {
  const already = loadedEncoding(encoding);
  let tokenizer: Tokenizer | undefined = already === undefined ? undefined : tokenizerOf(already);
  const current = (): Tokenizer => {
    tokenizer ??= tokenizerOf(loadEncodingSync(encoding));
    return tokenizer;
  };
  const countText = (text: string): number => {
    if (text.length === 0) return 0;
    const { api, splitter } = current();
    let n = 0;
    forEachBpeInput(text, splitter, (part) => {
      n += api.countTokens(part, PLAIN_TEXT);
    });
    return n;
  };
  const encode = (text: string): number[] => {
    const { api, splitter } = current();
    const tokens: number[] = [];
    forEachBpeInput(text, splitter, (part) => {
      for (const token of api.encode(part, PLAIN_TEXT)) tokens.push(token);
    });
    return tokens;
  };
  const roleTokens = new Map<string, number>();
  const countRole = (role: string): number => {
    let n = roleTokens.get(role);
    if (n === undefined) {
      n = countText(role);
      roleTokens.set(role, n);
    }
    return n;
  };

  const countPart = (part: ContentPart): number => {
    switch (part.type) {
      case 'text':
        return countText(part.text);
      case 'reasoning':
        return countText(part.text) + (part.redacted ? countText(part.redacted) : 0);
      case 'file':
        return part.mediaType.startsWith('text/') ? countText(part.data) : mediaTokens(part);
      case 'image':
        return mediaTokens(part);
      case 'provider': {
        const media = mediaStandIn(part);
        if (media === undefined) return countText(JSON.stringify(part.value) ?? '');
        return media.type === 'text' ? countText(media.text) : mediaTokens(media);
      }
    }
  };

  return {
    encoding,
    replyPrimingTokens: REPLY_PRIMING_TOKENS,
    countText,
    encode,
    // decodeGenerator, not decode: gpt-tokenizer's decode copies its byte buffer once per token
    // while a run of partial-character tokens lasts (quadratic on 1 MB of emoji). Same output,
    // same shared streaming decoder.
    decode: (tokens) => {
      let text = '';
      for (const part of current().api.decodeGenerator(tokens)) text += part;
      return text;
    },
    async ready() {
      if (tokenizer === undefined) {
        const loaded = await loadEncoding(encoding);
        tokenizer ??= tokenizerOf(loaded);
      }
    },
    countMessage(message) {
      let tokens = MESSAGE_OVERHEAD_TOKENS + countRole(message.role);
      const { content } = message;
      if (typeof content === 'string') tokens += countText(content);
      else for (const part of content) tokens += countPart(part);
      if (message.name) tokens += countText(message.name) + NAME_OVERHEAD_TOKENS;
      if (message.toolCalls) {
        for (const call of message.toolCalls) {
          tokens += countText(call.name) + countText(call.arguments) + TOOL_CALL_OVERHEAD_TOKENS;
        }
      }
      return tokens;
    },
  };
}

/**
 * Returns the message with its token count: the kept count when it has one, else counted now.
 * Messages are never re-tokenized once counted.
 */
export function withTokenCount(message: Message, counter: TokenCounter): CountedMessage {
  if (typeof message.tokenCount === 'number') return message as CountedMessage;
  return { ...message, tokenCount: counter.countMessage(message) };
}
