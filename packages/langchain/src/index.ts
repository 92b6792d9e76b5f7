/**
 * `@mem/langchain`: LangChain and LangGraph on mem sessions — middleware that keeps a
 * `createAgent` thread in a mem session (`memMiddleware`), a chat message history on any mem
 * store (`MemChatMessageHistory`), a budgeted window for LangGraph's pre-model hook
 * (`memWindowHook`), hooks that keep a `createReactAgent` thread in a mem session
 * (`memSessionHooks`), and lossless converters between LangChain and mem messages.
 */

export type {
  AgentRuntimeLike,
  AgentStateLike,
  MemAgentMiddleware,
  ModelRequestLike,
} from './agent/agent-middleware-types.ts';
export type {
  CreateAgentRefusal,
  UseMemMiddlewareWithCreateAgent,
} from './agent/create-agent-refusal.ts';

export type { LangChainContent } from './convert/content-blocks.ts';
export { fromLangChainMessages } from './convert/from-langchain.ts';
export type { LangChainExtras } from './convert/langchain-extras.ts';
export { LANGCHAIN_METADATA_KEY } from './convert/langchain-extras.ts';
export { toLangChainMessages } from './convert/to-langchain.ts';
export type { MemChatMessageHistoryOptions } from './mem-chat-message-history.ts';
export { MemChatMessageHistory } from './mem-chat-message-history.ts';
export type { MemMiddlewareOptions } from './mem-middleware.ts';
export { memMiddleware } from './mem-middleware.ts';
export type { MemSessionHooksOptions } from './mem-session-hooks.ts';
export { memSessionHooks } from './mem-session-hooks.ts';
export type { MemWindowOptions, MemWindowUpdate } from './mem-window-hook.ts';
export { memWindowHook } from './mem-window-hook.ts';
