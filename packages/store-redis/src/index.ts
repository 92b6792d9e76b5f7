export type { RedisKnowledgeBaseOptions } from './redis-knowledge-base.ts';
export { createRedisKnowledgeBase, kbKeys } from './redis-knowledge-base.ts';
export { createRedisStore } from './redis-store.ts';
export type { RedisConnection, RedisStoreOptions } from './redis-store-options.ts';
export { DEFAULT_COMMAND_TIMEOUT_MS } from './redis-store-options.ts';
export { encodeSessionId, sessionKeys } from './session-keys.ts';
