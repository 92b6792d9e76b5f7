export type { GenerateConversationOptions } from './testing/generate-conversation.ts';
export { generateConversation, seededRandom } from './testing/generate-conversation.ts';
