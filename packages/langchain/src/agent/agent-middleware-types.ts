import type { AIMessage, BaseMessage, SystemMessage } from '@langchain/core/messages';

/**
 * The parts of LangChain v1's agent middleware (`createAgent({ middleware })` from `langchain`)
 * mem uses, typed by shape: `@mem/langchain` needs no `langchain` import, so users of
 * `createReactAgent` do not install it. Checked against the real `createAgent` by the tests.
 */

/** What a hook reads of the agent's runtime: the run's `configurable` (`thread_id`, `user_id`). */
export interface AgentRuntimeLike {
  readonly configurable?:
    | { thread_id?: string; user_id?: string; [key: string]: unknown }
    | undefined;
  readonly context?: unknown;
}

/** The agent's state as a hook sees it. */
export interface AgentStateLike {
  messages: BaseMessage[];
}

/**
 * A model call as `wrapModelCall` sees it (the agent's system prompt apart from the messages:
 * `systemMessage`, or in older `langchain` 1.x only the `systemPrompt` string).
 */
export interface ModelRequestLike {
  messages: BaseMessage[];
  systemMessage?: SystemMessage;
  systemPrompt?: string;
  state: AgentStateLike;
  runtime: AgentRuntimeLike;
  /** The chat model of the call: its `model` / `modelName` picks how mem counts tokens. */
  model?: unknown;
}

/** An agent middleware (a value `createMiddleware` would return) with the hooks mem uses. */
export interface MemAgentMiddleware {
  readonly name: string;
  readonly beforeAgent: (state: AgentStateLike, runtime: AgentRuntimeLike) => Promise<undefined>;
  readonly wrapModelCall: <R extends ModelRequestLike>(
    request: R,
    handler: (request: R) => AIMessage | Promise<AIMessage>,
  ) => Promise<AIMessage>;
  readonly afterAgent: (state: AgentStateLike, runtime: AgentRuntimeLike) => Promise<undefined>;
}

/** `createMiddleware`'s brand (`Symbol.for`, so no import of `langchain` is needed to set it). */
export const AGENT_MIDDLEWARE_BRAND: unique symbol = Symbol.for('AgentMiddleware') as never;
