/**
 * `@mem/summarizers/ai-sdk`: a `ChatModel` and an `Embedder` on the AI SDK (`ai` 6 or 7), for any
 * of its provider packages. The way to embed when the chat model is Anthropic's.
 */
export type { AiSdkChatModelOptions, AiSdkModel } from './ai-sdk-chat-model.ts';
export { aiSdkChatModel } from './ai-sdk-chat-model.ts';
export type { AiSdkEmbedderOptions } from './ai-sdk-embedder.ts';
export { aiSdkEmbedder } from './ai-sdk-embedder.ts';
