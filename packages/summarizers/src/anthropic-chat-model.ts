import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { ChatModel, ChatRequest, ChatResponse } from './chat-model.ts';
import { withJsonInstruction } from './json-instruction.ts';
import { parseOptions } from './parse-options.ts';
import { toProviderError } from './to-provider-error.ts';

export interface AnthropicChatModelOptions {
  /** `claude-haiku-4-5`, `claude-sonnet-4-5`, ... */
  model: string;
  /**
   * JSON requests add a "reply with one JSON object" rule to the system prompt. With `jsonPrefill`
   * they also prefill the assistant turn with `{` (re-added to the returned text), so the reply
   * cannot start with prose. Default false: current Claude models answer a prefill with
   * 400 "prefill not supported"; turn it on for older models that support it.
   */
  jsonPrefill?: boolean;
  /** Overrides the `ChatModel.id` (default `anthropic:<model>`). */
  id?: string;
}

const optionsSchema = z.object({
  model: z.string().min(1, 'expected the model name, e.g. "claude-haiku-4-5"'),
  jsonPrefill: z.boolean().optional(),
  id: z.string().min(1).optional(),
});

const stopReasons: Record<string, ChatResponse['finishReason']> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  refusal: 'content-filter',
};

/**
 * A `ChatModel` on the official `@anthropic-ai/sdk` (`messages.create`, non-streaming).
 * `request.temperature` is not sent: the Messages API deprecated it (SDK 1.x has no such field), so
 * the model's default sampling applies. Anthropic
 * has no embeddings API: for a knowledge base pair it with `aiSdkEmbedder` (AI SDK, another
 * provider's embedding model) or `openAIEmbedder`. No retries: wrap it in `withRetries`.
 */
export function anthropicChatModel(
  client: Anthropic,
  options: AnthropicChatModelOptions,
): ChatModel {
  const opts = parseOptions(optionsSchema, options, 'anthropicChatModel options');
  const prefill = opts.jsonPrefill ?? false;
  const provider = 'anthropic';

  async function generate(request: ChatRequest): Promise<ChatResponse> {
    const system = request.json ? withJsonInstruction(request.system) : request.system;
    const prefix = request.json && prefill ? '{' : '';
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: request.prompt }];
    if (prefix !== '') messages.push({ role: 'assistant', content: prefix });
    let message: Anthropic.Message;
    try {
      message = await client.messages.create(
        {
          model: opts.model,
          max_tokens: request.maxOutputTokens,
          ...(system === '' ? {} : { system }),
          messages,
        },
        { signal: request.signal, maxRetries: 0 },
      );
    } catch (error) {
      throw toProviderError(provider, error, request.signal);
    }
    const text = (message.content ?? [])
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('');
    const usage = message.usage;
    return {
      text: prefix + text,
      usage: {
        inputTokens:
          (usage?.input_tokens ?? 0) +
          (usage?.cache_creation_input_tokens ?? 0) +
          (usage?.cache_read_input_tokens ?? 0),
        outputTokens: usage?.output_tokens ?? 0,
      },
      finishReason: stopReasons[message.stop_reason ?? ''] ?? 'other',
    };
  }

  return { id: opts.id ?? `anthropic:${opts.model}`, generate };
}
