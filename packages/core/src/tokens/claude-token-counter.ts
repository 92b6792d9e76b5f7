import type { ContentPart, Message } from '../model/message.ts';
import { forEachBpeInput, type PieceSplitter } from './bounded-pieces.ts';
import { claudeEncodingNow, loadClaudeEncoding } from './load-claude-encoding.ts';
import { mediaStandIn } from './provider-media.ts';
import type { TokenCounter } from './token-counter-spec.ts';

/**
 * ai-tokenizer's model table (1.0.6) for every Anthropic model: text is counted with the Claude
 * encoding and scaled by `CLAUDE_CONTENT_MULTIPLIER` (its calibration against Anthropic's
 * token-counting API), each message costs `CLAUDE_PER_MESSAGE_TOKENS` plus its role, and each
 * request `CLAUDE_BASE_OVERHEAD_TOKENS`. A test checks these against the table.
 */
export const CLAUDE_CONTENT_MULTIPLIER = 1.1;
export const CLAUDE_PER_MESSAGE_TOKENS = 2;
export const CLAUDE_BASE_OVERHEAD_TOKENS = 6;

/** The counter's `encoding` name. */
export const CLAUDE_ENCODING = 'claude';

const scaled = (tokens: number): number => Math.round(tokens * CLAUDE_CONTENT_MULTIPLIER);

/**
 * Counts for Claude models the way ai-tokenizer's `count()` does for them, so a message costs:
 * `2 + tokens(role) + Σ round(1.1 × tokens(part))` over its parts: each text or reasoning
 * part, the content of a tool message together with its `toolCallId` (a tool result), and each
 * tool call's name with its arguments. `name` is not counted (Anthropic's API has no such
 * field). Images and files cost `mediaTokens(part)`, unscaled, as in the OpenAI counter. A
 * prompt adds `replyPrimingTokens` (6) once.
 *
 * Text is split like the OpenAI counter's (`bounded-pieces.ts`): a pre-tokenizer piece over 128
 * UTF-8 bytes (Japanese without punctuation, a long digit run) is counted in bounded sub-pieces,
 * so counting stays linear on any text. Counting needs the encoding loaded: `await ready()`.
 */
export function createClaudeTokenCounter(
  mediaTokens: (part: ContentPart) => number,
): TokenCounter & { ready(): Promise<void> } {
  let splitter: PieceSplitter | undefined;
  const raw = (text: string): number => {
    if (text.length === 0) return 0;
    const encoding = claudeEncodingNow();
    splitter ??= { split: encoding.splitRegex, tokenLengths: encoding.tokenLengths };
    let n = 0;
    forEachBpeInput(text, splitter, (part) => {
      n += encoding.count(part);
    });
    return n;
  };
  const roleTokens = new Map<string, number>();
  const countRole = (role: string): number => {
    let n = roleTokens.get(role);
    if (n === undefined) {
      n = raw(role);
      roleTokens.set(role, n);
    }
    return n;
  };
  const countPart = (part: ContentPart): number => {
    switch (part.type) {
      case 'text':
        return scaled(raw(part.text));
      case 'reasoning':
        return scaled(raw(part.text) + (part.redacted ? raw(part.redacted) : 0));
      case 'file':
        return part.mediaType.startsWith('text/') ? scaled(raw(part.data)) : mediaTokens(part);
      case 'image':
        return mediaTokens(part);
      case 'provider': {
        const media = mediaStandIn(part);
        if (media === undefined) return scaled(raw(JSON.stringify(part.value) ?? ''));
        return media.type === 'text' ? scaled(raw(media.text)) : mediaTokens(media);
      }
    }
  };

  return {
    encoding: CLAUDE_ENCODING,
    replyPrimingTokens: CLAUDE_BASE_OVERHEAD_TOKENS,
    countText: (text) => scaled(raw(text)),
    async ready() {
      await loadClaudeEncoding();
    },
    countMessage(message: Message) {
      let tokens = CLAUDE_PER_MESSAGE_TOKENS + countRole(message.role);
      const { content } = message;
      if (message.role === 'tool') {
        // A tool result: its id and its output are one part.
        const id = message.toolCallId === undefined ? 0 : raw(message.toolCallId);
        if (typeof content === 'string') tokens += scaled(id + raw(content));
        else {
          let text = id;
          for (const part of content) {
            if (part.type === 'text') text += raw(part.text);
            else tokens += countPart(part);
          }
          tokens += scaled(text);
        }
      } else if (typeof content === 'string') tokens += scaled(raw(content));
      else for (const part of content) tokens += countPart(part);
      for (const call of message.toolCalls ?? []) {
        tokens += scaled(raw(call.name) + raw(call.arguments));
      }
      return tokens;
    },
  };
}
