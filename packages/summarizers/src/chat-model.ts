/**
 * The one thing `@mem/summarizers` needs from an LLM: a single text completion. Each provider
 * adapter (`@mem/summarizers/openai`, `/anthropic`, `/ai-sdk`) turns its SDK into a `ChatModel`;
 * the Chain of Density summarizer and the retry policy work on this interface only.
 */
export interface ChatRequest {
  /** System prompt. */
  system: string;
  /** The single user message. */
  prompt: string;
  /** Upper bound of the reply, in tokens. */
  maxOutputTokens: number;
  /** Ask for a JSON object reply (OpenAI `response_format: json_object`; a prompt rule elsewhere). */
  json: boolean;
  /** Default 0: summaries should be reproducible. */
  temperature?: number;
  /** Aborts the HTTP request (deadline or caller). */
  signal: AbortSignal;
}

export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ChatResponse {
  text: string;
  usage: ChatUsage;
  /** `length`: the reply hit `maxOutputTokens` and is truncated. */
  finishReason: 'stop' | 'length' | 'content-filter' | 'other';
}

export interface ChatModel {
  /** `openai:gpt-4o-mini`, `anthropic:claude-sonnet-4-5`, `ai-sdk:openai.chat:gpt-4o-mini`. */
  readonly id: string;
  /**
   * One request, no retries of its own (adapters turn SDK retries off; `withRetries` owns the
   * policy). Rejects with `ProviderError` for HTTP/network failures and aborts.
   */
  generate(request: ChatRequest): Promise<ChatResponse>;
}
