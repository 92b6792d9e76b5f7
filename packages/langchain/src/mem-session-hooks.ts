import type { BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { type MemoryEngine, type MemorySession, MemValidationError } from '@mem/core';
import { type CreateAgentRefusal, createAgentRefusal } from './agent/create-agent-refusal.ts';
import { fromLangChainMessage } from './convert/from-langchain.ts';
import { langChainExtras } from './convert/langchain-extras.ts';
import { toLangChainMessages } from './convert/to-langchain.ts';
import type { MemWindowUpdate } from './mem-window-hook.ts';
import { checkUserId, configuredUserId, sessionOptions } from './user-id.ts';

export interface MemSessionHooksOptions {
  /** The mem engine: its profile's window is the budget, its store keeps each thread. */
  engine: MemoryEngine;
  /** The mem session of a run. Default: `config.configurable.thread_id`. */
  sessionId?: (config: RunnableConfig | undefined) => string;
  /**
   * The user the thread belongs to (`undefined`: none). Default: `config.configurable.user_id`.
   * The thread is bound to the user on its first write: the user's other threads are recalled
   * into its context (profile `knowledge_base.scope`), the user's facts join it, and
   * `engine.forgetUser(userId)` erases it. A thread stored for another user is refused
   * (`MemValidationError`, field `userId`).
   */
  userId?: (config: RunnableConfig | undefined) => string | undefined;
}

type State = { messages: BaseMessage[] };

/**
 * LangGraph hooks that keep a thread in a mem session (on any mem store), for
 * `createReactAgent({ llm, tools, ...memSessionHooks({ engine }) })`:
 *
 * - `preModelHook` stores the thread's messages mem has not seen yet (by LangChain message id),
 *   then gives the model mem's context for the session as `llmInputMessages`: pinned system
 *   prompts, the summary of older turns, recalled knowledge and the newest whole turns within the
 *   profile's `max_tokens` budget (a tool call never apart from its result);
 * - `postModelHook` stores the model's reply, so the final answer is kept too.
 *
 * A later run of the same thread (even in another process, without a LangGraph checkpointer)
 * only passes its new messages: the earlier turns come from mem. Every state message needs an id
 * (LangGraph's messages reducer gives one to each).
 *
 * Not for LangChain v1's `createAgent`, which never calls these hooks: use `memMiddleware` there.
 * Spread into `createAgent`'s options, the hooks do not type-check, and at run time the agent
 * throws a `MemError` (code `MEM_CONFIG`) at its first step, before the model is called.
 */
export function memSessionHooks(options: MemSessionHooksOptions): {
  preModelHook: (state: State, config?: RunnableConfig) => Promise<MemWindowUpdate>;
  postModelHook: (state: State, config?: RunnableConfig) => Promise<Record<string, never>>;
  /** Makes `createAgent` refuse the hooks (`createReactAgent` ignores it). */
  middleware: CreateAgentRefusal;
} {
  if (typeof options?.engine?.session !== 'function') {
    throw new MemValidationError(
      'engine',
      '[mem/langchain] memSessionHooks needs { engine }: a mem engine from createMemoryEngine({ profile, store }).',
    );
  }
  const { engine } = options;
  const sessionIdOf = options.sessionId ?? threadId;
  const userIdOf = (config: RunnableConfig | undefined): string | undefined => {
    if (options.userId === undefined) return configuredUserId(config?.configurable, WHERE);
    const userId: unknown = options.userId(config);
    return userId === undefined
      ? undefined
      : checkUserId(userId, 'userId (returned by the function)', WHERE);
  };
  /** Per session, the LangChain ids of the messages it holds (read from the store once). */
  const seen = new Map<string, Promise<Set<string>>>();

  const sync = async (state: State, config: RunnableConfig | undefined): Promise<MemorySession> => {
    const session = engine.session(sessionIdOf(config), sessionOptions(userIdOf(config)));
    let ids = seen.get(session.id);
    if (ids === undefined) {
      ids = storedIds(session);
      seen.set(session.id, ids);
    }
    const known = await ids;
    const messages = Array.isArray(state?.messages) ? state.messages : [];
    const fresh = messages.filter((m, i) => {
      if (typeof m.id !== 'string' || m.id === '') {
        throw new MemValidationError(
          `state.messages[${i}].id`,
          `[mem/langchain] state.messages[${i}] has no id: memSessionHooks tells stored messages from new ones by id (LangGraph's messages reducer gives every message one).`,
        );
      }
      return !known.has(m.id);
    });
    if (fresh.length > 0) {
      await session.append(fresh.map((m, i) => fromLangChainMessage(m, i)));
      for (const m of fresh) known.add(m.id as string);
    }
    return session;
  };

  return {
    async preModelHook(state, config) {
      const session = await sync(state, config);
      const context = await session.context();
      return { llmInputMessages: toLangChainMessages(context.messages) };
    },
    async postModelHook(state, config) {
      await sync(state, config);
      return {};
    },
    middleware: createAgentRefusal(),
  };
}

const WHERE = 'memSessionHooks';

async function storedIds(session: MemorySession): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const m of await session.history()) {
    const id = langChainExtras(m.metadata)?.id;
    if (id !== undefined) ids.add(id);
  }
  return ids;
}

function threadId(config: RunnableConfig | undefined): string {
  const id: unknown = config?.configurable?.thread_id;
  if (typeof id === 'string' || typeof id === 'number') return String(id);
  throw new MemValidationError(
    'config.configurable.thread_id',
    '[mem/langchain] memSessionHooks names the mem session after the thread: invoke the agent with { configurable: { thread_id } }, or pass memSessionHooks({ sessionId }).',
  );
}
