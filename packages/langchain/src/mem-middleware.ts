import { type BaseMessage, SystemMessage } from '@langchain/core/messages';
import { type MemoryEngine, type MemorySession, MemValidationError } from '@mem/core';
import {
  AGENT_MIDDLEWARE_BRAND,
  type AgentRuntimeLike,
  type AgentStateLike,
  type MemAgentMiddleware,
} from './agent/agent-middleware-types.ts';
import { modelIdOf, modelOption } from './agent/model-id.ts';
import { sortRunStart } from './agent/run-start.ts';
import { fromLangChainMessage } from './convert/from-langchain.ts';
import { toLangChainMessages } from './convert/to-langchain.ts';
import { checkUserId, configuredUserId, sessionOptions } from './user-id.ts';

export interface MemMiddlewareOptions {
  /** The mem engine: its profile's window is the budget, its store keeps each thread. */
  engine: MemoryEngine;
  /** The mem session of a run. Default: the run's `configurable.thread_id`. */
  sessionId?: (runtime: AgentRuntimeLike) => string;
  /**
   * The user the run's thread belongs to (`undefined`: none). Default: the run's
   * `configurable.user_id`. The thread is bound to the user on its first write: the user's other
   * threads are recalled into its context (profile `knowledge_base.scope`), the user's facts join
   * the system message, and `engine.forgetUser(userId)` erases it. A thread stored for another
   * user is refused (`MemValidationError`, field `userId`).
   */
  userId?: (runtime: AgentRuntimeLike) => string | undefined;
}

/** One agent run: its session, and the LangChain ids of its messages the session holds. */
interface Run {
  session: MemorySession;
  known: Set<string>;
  /** The id of the chat model the run's newest call went to: tokens are counted for it. */
  model?: string | undefined;
}

/**
 * Middleware for LangChain v1's `createAgent` (from `langchain`) that keeps each thread in a mem
 * session on any mem store: `createAgent({ model, tools, middleware: [memMiddleware({ engine })] })`.
 *
 * - Before the run (`beforeAgent`), the messages the run starts with are sorted into stored and
 *   new (see `sortRunStart`: a run may pass only its new messages or re-send the thread; an
 *   edited or dropped stored message is refused); new system messages are stored.
 * - Each model call (`wrapModelCall`) gets mem's context instead of the whole thread: pinned
 *   system prompts, the summary of older turns and recalled knowledge (folded into the agent's
 *   system message), then the newest whole turns within the profile's budget, the run's own new
 *   messages counted in (a tool call never apart from its result).
 * - When the run completes (`afterAgent`), its new messages — the question, every tool call and
 *   result, the answer — are stored in one atomic append, with the last call's token usage.
 *
 * Runs that overlap on one thread are isolated: each sees the stored conversation and its own
 * messages, and stores them as one whole turn, never interleaved with another run's. A run that
 * fails or is interrupted stores nothing; send its question again.
 */
export function memMiddleware(options: MemMiddlewareOptions): MemAgentMiddleware {
  if (typeof options?.engine?.session !== 'function') {
    throw new MemValidationError(
      'engine',
      '[mem/langchain] memMiddleware needs { engine }: a mem engine from createMemoryEngine({ profile, store }).',
    );
  }
  const { engine } = options;
  const sessionIdOf = options.sessionId ?? threadId;
  const userIdOf = (runtime: AgentRuntimeLike): string | undefined => {
    if (options.userId === undefined) return configuredUserId(runtime?.configurable, WHERE);
    const userId: unknown = options.userId(runtime);
    return userId === undefined
      ? undefined
      : checkUserId(userId, 'userId (returned by the function)', WHERE);
  };
  // A run is found again by the newest message it started with (the same object all run long).
  const runs = new WeakMap<BaseMessage, Run>();

  const start = async (state: AgentStateLike, runtime: AgentRuntimeLike): Promise<Run> => {
    const messages = messagesOf(state);
    const session = engine.session(sessionIdOf(runtime), sessionOptions(userIdOf(runtime)));
    const { known, newSystem } = await sortRunStart(session, messages);
    if (newSystem.length > 0) {
      await session.append(newSystem);
      for (const m of messages)
        if (m.type === 'system' && typeof m.id === 'string') known.add(m.id);
    }
    const run = { session, known };
    const newest = messages.at(-1);
    if (newest !== undefined) runs.set(newest, run);
    return run;
  };
  /** The run's record; a run resumed where it was not started is sorted again. */
  const runOf = (state: AgentStateLike, runtime: AgentRuntimeLike): Promise<Run> | Run => {
    const messages = messagesOf(state);
    for (let i = messages.length - 1; i >= 0; i--) {
      const run = runs.get(messages[i] as BaseMessage);
      if (run !== undefined) return run;
    }
    return start(state, runtime);
  };
  const unstored = (run: Run, messages: readonly BaseMessage[]) =>
    messages.filter((m) => !(typeof m.id === 'string' && run.known.has(m.id)));

  const middleware: MemAgentMiddleware = {
    name: 'memMiddleware',
    async beforeAgent(state, runtime) {
      await start(state, runtime);
      return undefined;
    },
    async wrapModelCall(request, handler) {
      const run = await runOf(request.state, request.runtime);
      const fresh = unstored(run, request.messages);
      const next = fresh.filter((m) => m.type !== 'system').map(fromLangChainMessage);
      run.model = modelIdOf(request.model);
      const context = await run.session.context({ next, ...modelOption(run.model) });
      const messages = toLangChainMessages(context.messages);
      const pinned = leadingSystem(messages);
      const system = [...fresh.filter((m) => m.type === 'system'), ...pinned];
      const rest = messages.slice(pinned.length);
      return request.systemMessage === undefined
        ? handler({ ...request, messages: rest, systemPrompt: withSystemText(request, system) })
        : handler({
            ...request,
            messages: rest,
            systemMessage: withSystem(request.systemMessage, system),
          });
    },
    async afterAgent(state, runtime) {
      const run = await runOf(state, runtime);
      const fresh = unstored(run, messagesOf(state)).filter((m) => m.type !== 'system');
      if (fresh.length === 0) return undefined;
      const usage = lastUsage(fresh);
      await run.session.append(fresh.map(fromLangChainMessage), {
        ...(usage === undefined ? {} : { usage }),
        ...modelOption(run.model),
      });
      for (const m of fresh) if (typeof m.id === 'string') run.known.add(m.id);
      return undefined;
    },
  };
  return Object.assign(middleware, { [AGENT_MIDDLEWARE_BRAND]: true });
}

const WHERE = 'memMiddleware';

function messagesOf(state: AgentStateLike): BaseMessage[] {
  if (!Array.isArray(state?.messages)) {
    throw new MemValidationError(
      'state.messages',
      '[mem/langchain] memMiddleware reads the agent state\'s "messages": use it in createAgent({ middleware }) from langchain.',
    );
  }
  return state.messages;
}

function leadingSystem(messages: readonly BaseMessage[]): BaseMessage[] {
  const end = messages.findIndex((m) => m.type !== 'system');
  return messages.slice(0, end === -1 ? messages.length : end);
}

/** The agent's system message with mem's (pinned prompts, summary, knowledge) after it. */
function withSystem(agent: SystemMessage, extra: readonly BaseMessage[]): SystemMessage {
  let out = agent;
  for (const m of extra) {
    const text = m.text;
    if (text === '') continue;
    out = out.text === '' ? new SystemMessage(text) : out.concat(`\n\n${text}`);
  }
  return out;
}

/** The same for a `langchain` 1.x whose requests carry only the `systemPrompt` string. */
function withSystemText(request: { systemPrompt?: string }, extra: readonly BaseMessage[]): string {
  const texts = [request.systemPrompt ?? '', ...extra.map((m) => m.text)];
  return texts.filter((t) => t !== '').join('\n\n');
}

/** The token usage the provider reported for the run's last model call, if any. */
function lastUsage(
  messages: readonly BaseMessage[],
): { inputTokens: number; outputTokens?: number } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const usage = (
      messages[i] as { usage_metadata?: { input_tokens?: unknown; output_tokens?: unknown } }
    ).usage_metadata;
    const input = usage?.input_tokens;
    if (typeof input === 'number' && Number.isSafeInteger(input) && input >= 0) {
      const output = usage?.output_tokens;
      return typeof output === 'number' && Number.isSafeInteger(output) && output >= 0
        ? { inputTokens: input, outputTokens: output }
        : { inputTokens: input };
    }
  }
  return undefined;
}

function threadId(runtime: AgentRuntimeLike): string {
  const id: unknown = runtime?.configurable?.thread_id;
  if ((typeof id === 'string' && id !== '') || typeof id === 'number') return String(id);
  throw new MemValidationError(
    'config.configurable.thread_id',
    '[mem/langchain] memMiddleware names the mem session after the thread: invoke the agent with { configurable: { thread_id } }, or pass memMiddleware({ engine, sessionId: (runtime) => ... }).',
  );
}
