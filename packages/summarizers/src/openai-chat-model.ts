import { z } from 'zod';
import type { ChatModel, ChatRequest, ChatResponse } from './chat-model.ts';
import { JSON_INSTRUCTION } from './json-instruction.ts';
import { parseOptions } from './parse-options.ts';
import { ProviderError } from './provider-error.ts';
import { toProviderError } from './to-provider-error.ts';

export interface OpenAIChatModelOptions {
  /** `gpt-4o-mini`, `gpt-5-mini`, or the server's name for it (`llama3.1:8b` on Ollama). */
  model: string;
  /**
   * Which field carries `maxOutputTokens`. `max_completion_tokens` is what OpenAI wants (its
   * reasoning models reject `max_tokens`); `max_tokens` is what OpenAI-compatible servers (Ollama,
   * vLLM, llama.cpp, LM Studio, most hosted gateways) understand. Default: `max_completion_tokens`
   * when the client talks to `api.openai.com` or Azure OpenAI, `max_tokens` for any other baseURL.
   */
  maxTokensParameter?: 'max_completion_tokens' | 'max_tokens';
  /** Do not send `temperature` (OpenAI reasoning models accept only their default). Default false. */
  omitTemperature?: boolean;
  /** Overrides the `ChatModel.id` (default `openai:<model>`). */
  id?: string;
}

const optionsSchema = z.object({
  model: z.string().min(1, 'expected the model name, e.g. "gpt-4o-mini"'),
  maxTokensParameter: z.enum(['max_completion_tokens', 'max_tokens']).optional(),
  omitTemperature: z.boolean().optional(),
  id: z.string().min(1).optional(),
});

function talksToOpenAI(baseURL: string): boolean {
  try {
    const host = new URL(baseURL).hostname;
    return host === 'api.openai.com' || host.endsWith('.openai.azure.com');
  } catch {
    return false;
  }
}

const finishReasons: Record<string, ChatResponse['finishReason']> = {
  stop: 'stop',
  length: 'length',
  content_filter: 'content-filter',
};

/**
 * A `ChatModel` on the official `openai` SDK (chat completions, non-streaming), for OpenAI and for
 * OpenAI-compatible servers through the client's `baseURL`. JSON requests use
 * `response_format: {type: 'json_object'}` (the JSON rule is added to the system prompt when the
 * prompts do not mention JSON, which that mode requires). No retries: wrap it in `withRetries`.
 */
/**
 * The part of an `openai` client the chat model uses: a client of the SDK 5, 6 or 7 (typed by what
 * they share, since each major's `OpenAI` class is a type of its own) or an OpenAI-compatible one.
 */
export interface OpenAIChatClient {
  readonly baseURL: string;
  readonly chat: {
    readonly completions: {
      create(
        body: OpenAIChatBody,
        options: { signal?: AbortSignal; maxRetries?: number },
      ): PromiseLike<OpenAIChatCompletion>;
    };
  };
}

/** The chat completion request the chat model sends (a subset of every SDK's params). */
export interface OpenAIChatBody {
  model: string;
  messages: { role: 'system' | 'user'; content: string }[];
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  response_format?: { type: 'json_object' };
}

/** The fields of a chat completion the chat model reads. */
export interface OpenAIChatCompletion {
  choices: readonly {
    message: { content: string | null; refusal?: string | null };
    finish_reason: string;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number } | undefined;
}

export function openAIChatModel(
  client: OpenAIChatClient,
  options: OpenAIChatModelOptions,
): ChatModel {
  const opts = parseOptions(optionsSchema, options, 'openAIChatModel options');
  const maxTokensField =
    opts.maxTokensParameter ??
    (talksToOpenAI(client.baseURL) ? 'max_completion_tokens' : 'max_tokens');
  const provider = 'openai';

  async function generate(request: ChatRequest): Promise<ChatResponse> {
    const mentionsJson = /json/i.test(request.system) || /json/i.test(request.prompt);
    const system =
      request.json && !mentionsJson ? `${request.system}\n\n${JSON_INSTRUCTION}` : request.system;
    const body: OpenAIChatBody = {
      model: opts.model,
      messages: [
        ...(system === '' ? [] : [{ role: 'system' as const, content: system }]),
        { role: 'user', content: request.prompt },
      ],
      [maxTokensField]: request.maxOutputTokens,
      ...(opts.omitTemperature ? {} : { temperature: request.temperature ?? 0 }),
      ...(request.json ? { response_format: { type: 'json_object' as const } } : {}),
    };
    let completion: OpenAIChatCompletion;
    try {
      completion = await client.chat.completions.create(body, {
        signal: request.signal,
        maxRetries: 0,
      });
    } catch (error) {
      throw toProviderError(provider, error, request.signal);
    }
    const choice = completion.choices?.[0];
    if (choice === undefined) {
      throw new ProviderError({
        kind: 'malformed-response',
        provider,
        detail: 'the reply has no choices',
        retryable: true,
      });
    }
    const refused = typeof choice.message?.refusal === 'string' && choice.message.refusal !== '';
    return {
      text: choice.message?.content ?? '',
      usage: {
        inputTokens: completion.usage?.prompt_tokens ?? 0,
        outputTokens: completion.usage?.completion_tokens ?? 0,
      },
      finishReason: refused ? 'content-filter' : (finishReasons[choice.finish_reason] ?? 'other'),
    };
  }

  return { id: opts.id ?? `openai:${opts.model}`, generate };
}
