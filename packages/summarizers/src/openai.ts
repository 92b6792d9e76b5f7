/**
 * `@mem/summarizers/openai`: a `ChatModel` and an `Embedder` on the official `openai` SDK, for
 * OpenAI and OpenAI-compatible servers (Ollama, vLLM, ...) through the client's `baseURL`.
 */
export type { OpenAIChatModelOptions } from './openai-chat-model.ts';
export { openAIChatModel } from './openai-chat-model.ts';
export type { OpenAIEmbedderOptions } from './openai-embedder.ts';
export { openAIEmbedder } from './openai-embedder.ts';
