/**
 * `@mem/summarizers/anthropic`: a `ChatModel` on the official `@anthropic-ai/sdk`.
 *
 * Anthropic has no embeddings API, so there is no Anthropic embedder: use `aiSdkEmbedder` from
 * `@mem/summarizers/ai-sdk` with another provider's embedding model (e.g. `@ai-sdk/openai`,
 * Voyage, or a local Ollama model), or `openAIEmbedder` from `@mem/summarizers/openai`.
 */
export type { AnthropicChatModelOptions } from './anthropic-chat-model.ts';
export { anthropicChatModel } from './anthropic-chat-model.ts';
