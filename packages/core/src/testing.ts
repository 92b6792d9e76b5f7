export { countedTurns, meanJsonBytes } from './testing/counted-turns.ts';
export type { GenerateConversationOptions } from './testing/generate-conversation.ts';
export { generateConversation, seededRandom } from './testing/generate-conversation.ts';
export type { FreshReadMode } from './testing/measure-fresh-read.ts';
export { measureFreshRead } from './testing/measure-fresh-read.ts';
export type { RecallContextResult } from './testing/measure-recall-context.ts';
export { measureRecallContext, RECALL_SPEED_PROFILE } from './testing/measure-recall-context.ts';
export type {
  WordVectorEmbedder,
  WordVectorEmbedderOptions,
} from './testing/word-vector-embedder.ts';
export { createWordVectorEmbedder } from './testing/word-vector-embedder.ts';
