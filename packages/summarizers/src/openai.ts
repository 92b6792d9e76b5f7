/**
 * `@mem/summarizers/openai`: a `ChatModel` and an `Embedder` on the official `openai` SDK (5, 6 or 7), for
 * OpenAI and OpenAI-compatible servers (Ollama, vLLM, ...) through the client's `baseURL`.
 */
export type {
  OpenAIChatBody,
  OpenAIChatClient,
  OpenAIChatCompletion,
  OpenAIChatModelOptions,
} from './openai-chat-model.ts';
export { openAIChatModel } from './openai-chat-model.ts';
export type {
  OpenAIEmbedderOptions,
  OpenAIEmbeddingResponse,
  OpenAIEmbeddingsClient,
} from './openai-embedder.ts';
export { openAIEmbedder } from './openai-embedder.ts';
