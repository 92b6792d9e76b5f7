import Tokenizer, { type ModelName, models } from 'ai-tokenizer';
import * as cl100k_base from 'ai-tokenizer/encoding/cl100k_base';
import * as claude from 'ai-tokenizer/encoding/claude';
import * as o200k_base from 'ai-tokenizer/encoding/o200k_base';
import * as p50k_base from 'ai-tokenizer/encoding/p50k_base';
import { count } from 'ai-tokenizer/sdk';
import type { Message } from '../../model/message.ts';

/**
 * "The model's tokenizer" as ai-tokenizer defines it: `count()` with the model's entry of its
 * table (encoding, content multiplier, per-message and per-request overheads). Used by the
 * tests and by `bench/token-counts-bench.ts` as the figure mem's counts are held to.
 */
const encodings = { claude, cl100k_base, o200k_base, p50k_base } as const;
const tokenizers = new Map<string, Tokenizer>();

function tokenizerOf(encoding: keyof typeof encodings): Tokenizer {
  let tokenizer = tokenizers.get(encoding);
  if (tokenizer === undefined) {
    tokenizer = new Tokenizer(encodings[encoding]);
    tokenizers.set(encoding, tokenizer);
  }
  return tokenizer;
}

type SdkMessage = Parameters<typeof count>[0]['messages'][number];

const text = (m: Message): string =>
  typeof m.content === 'string'
    ? m.content
    : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');

/** A mem message as the AI SDK ModelMessage ai-tokenizer reads. */
export function toSdkMessage(m: Message): SdkMessage {
  if (m.role === 'tool') {
    return {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: m.toolCallId ?? '',
          toolName: m.toolName ?? '',
          output: text(m),
        },
      ],
    } as unknown as SdkMessage;
  }
  if (m.role === 'assistant' && m.toolCalls !== undefined) {
    const body = text(m);
    return {
      role: 'assistant',
      content: [
        ...(body === '' ? [] : [{ type: 'text', text: body }]),
        ...m.toolCalls.map((c) => ({
          type: 'tool-call',
          toolCallId: c.id,
          toolName: c.name,
          input: JSON.parse(c.arguments) as unknown,
        })),
      ],
    } as unknown as SdkMessage;
  }
  return { role: m.role, content: text(m) } as SdkMessage;
}

/** ai-tokenizer's count of a prompt made of `messages`, for `model` (a key of its table). */
export function referenceCount(model: ModelName, messages: readonly Message[]): number {
  const entry = models[model];
  return count({
    // sdk.d.ts declares its own (identical) Tokenizer type.
    tokenizer: tokenizerOf(entry.encoding) as never,
    model: entry,
    messages: messages.map(toSdkMessage),
  }).total;
}

export { models as aiTokenizerModels };
