import { generateText, type LanguageModel } from 'ai';
import type { ChatModel, ChatRequest, ChatResponse } from './chat-model.ts';
import { withJsonInstruction } from './json-instruction.ts';
import { toProviderError } from './to-provider-error.ts';

type GenerateTextOptions = Parameters<typeof generateText>[0];

/**
 * A model of the AI SDK the app installs, `ai` 6 or 7: a provider's model object
 * (`LanguageModelV3` for `@ai-sdk/*` 3, `LanguageModelV4` for `@ai-sdk/*` 4) or a gateway model id.
 * Typed by what every version shares, so the types of either major fit; the installed `ai`
 * checks the version at call time.
 */
export type AiSdkModel =
  | string
  | { readonly specificationVersion: string; readonly provider: string; readonly modelId: string };

export interface AiSdkChatModelOptions {
  /** Passed to `generateText` as is, e.g. `{ openai: { reasoningEffort: 'low' } }`. */
  providerOptions?: GenerateTextOptions['providerOptions'];
  /** Overrides the `ChatModel.id` (default `ai-sdk:<provider>:<modelId>`). */
  id?: string;
}

/** `ai-sdk:openai.chat:gpt-4o-mini`, or `ai-sdk:<id>` for a gateway model id string. */
export function aiSdkModelId(model: AiSdkModel): string {
  return typeof model === 'string'
    ? `ai-sdk:${model}`
    : `ai-sdk:${model.provider}:${model.modelId}`;
}

/** The error the AI SDK threw, unwrapped from a `RetryError` should one ever appear. */
export function unwrapAiSdkError(error: unknown): unknown {
  if (typeof error === 'object' && error !== null && 'lastError' in error) {
    const name = (error as { name?: unknown }).name;
    if (name === 'AI_RetryError') return (error as { lastError: unknown }).lastError;
  }
  return error;
}

const finishReasons: Record<string, ChatResponse['finishReason']> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content-filter',
};

/**
 * A `ChatModel` on the AI SDK (`generateText` from the `ai` the app installs, 6 or 7), for any
 * provider package (`@ai-sdk/openai`, `@ai-sdk/anthropic`, ... 3 with `ai` 6, 4 with `ai` 7). JSON requests add a "reply with one JSON object"
 * rule to the system prompt: the AI SDK's JSON output mode would reject a truncated reply before
 * the summarizer could see its `finishReason`. No retries (`maxRetries: 0`): wrap it in `withRetries`.
 */
export function aiSdkChatModel(model: AiSdkModel, options: AiSdkChatModelOptions = {}): ChatModel {
  const provider = 'ai-sdk';

  async function generate(request: ChatRequest): Promise<ChatResponse> {
    try {
      const result = await generateText({
        model: model as LanguageModel,
        system: request.json ? withJsonInstruction(request.system) : request.system,
        prompt: request.prompt,
        maxOutputTokens: request.maxOutputTokens,
        temperature: request.temperature ?? 0,
        abortSignal: request.signal,
        maxRetries: 0,
        ...(options.providerOptions === undefined
          ? {}
          : { providerOptions: options.providerOptions }),
      });
      return {
        text: result.text,
        usage: {
          inputTokens: result.usage.inputTokens ?? 0,
          outputTokens: result.usage.outputTokens ?? 0,
        },
        finishReason: finishReasons[result.finishReason] ?? 'other',
      };
    } catch (error) {
      throw toProviderError(provider, unwrapAiSdkError(error), request.signal);
    }
  }

  return { id: options.id ?? aiSdkModelId(model), generate };
}
