import {
  type MemoryEngine,
  type MemorySession,
  MemValidationError,
  modelCounting,
  type SessionAppendOptions,
} from '@mem/core';
import { assertValidUserId } from '@mem/core/backend';
import type { AgentInputItem, RunContext, Session, SessionInputCallback } from '@openai/agents';
import { itemToMessage, messageToItems } from './agent-items.ts';
import { validateItems } from './validate-items.ts';

export interface MemAgentsSessionOptions {
  /**
   * The engine whose profile and store the session uses: its short-term window, long-term
   * strategies (summaries, erasure) and knowledge base decide what `getItems` returns.
   */
  engine: MemoryEngine;
  /** The mem session id (validated by the store: 1-512 characters, no control characters). */
  sessionId: string;
  /**
   * The user the conversation belongs to (validated like `sessionId`). The session is bound to
   * the user on its first write: the user's other conversations are recalled into its context
   * (profile `knowledge_base.scope`), the user's facts join its items, and
   * `engine.forgetUser(userId)` erases it. A session stored for another user is refused
   * (`MemValidationError`, field `userId`). Omitted: a session without a user.
   */
  userId?: string;
  /**
   * The agent's model (e.g. `gpt-4.1`, `claude-sonnet-4-5` through a compatible endpoint): mem
   * counts tokens with that model's encoding, so the window's budget is in its tokens. Omitted:
   * the engine's model, else OpenAI's o200k encoding.
   */
  model?: string;
}

/**
 * The input tokens the provider reported for the run's newest model request (what mem's
 * `input_tokens_threshold` reads and compares with its own count), when the run has made one.
 */
function reportedUsage(runContext: RunContext | undefined): SessionAppendOptions {
  const usage = runContext?.usage;
  if (usage === undefined || usage.requests === 0) return {};
  const newest = usage.requestUsageEntries?.at(-1)?.inputTokens;
  const inputTokens = newest ?? (usage.requests === 1 ? usage.inputTokens : undefined);
  return typeof inputTokens === 'number' && Number.isFinite(inputTokens) && inputTokens > 0
    ? { usage: { inputTokens } }
    : {};
}

function checkUserId(userId: unknown): asserts userId is string {
  try {
    assertValidUserId(userId, 'userId');
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^\[mem\/store\] /, '') : '';
    throw new MemValidationError(
      'userId',
      `[mem/openai-agents] options.userId must be the id of the user the conversation belongs to (1-512 characters of well-formed text, no control characters), or left out: ${why}.`,
      { cause: error },
    );
  }
}

/**
 * A `Session` of the OpenAI Agents SDK on a mem engine, so `run(agent, input, { session })`
 * remembers through any mem store (in memory, SQLite, Redis) with mem's strategies applied.
 *
 * - `addItems(items)` stores the items as mem messages in one atomic append (the original item
 *   kept in the message's metadata, so it reads back exactly), then lets the engine's long-term
 *   strategies run.
 * - `getItems()` is the session's context per the engine's profile: pinned system prompts, the
 *   summary (a `system` message item), recalled knowledge, then the window. Without a
 *   short-term strategy, the whole history. `getItems(limit)`: its newest `limit` items.
 * - `popItem()` removes the newest stored item for good, atomically against concurrent writes
 *   (`Store.pop`); a summary is never popped (`undefined` when it is the newest message).
 * - `clearSession()` removes the session's messages, summaries and indexed knowledge.
 *
 * The runner reads the session before it knows the turn's input, so `getItems()` recalls
 * knowledge for the newest stored question. Pass `sessionInputCallback` too
 * (`run(agent, input, { session, sessionInputCallback: session.sessionInputCallback })`) and
 * the context is built for the new input: knowledge is searched for the new question, and the
 * budget counts it.
 */
export class MemAgentsSession implements Session {
  /** The runner passes its run context to every call: the provider's usage is read from it. */
  readonly acceptsRunContext = true as const;
  readonly #session: MemorySession;
  readonly #model: { model?: string };
  /** mem's own items (facts, summary, knowledge) the last `sessionInputCallback` made, by key. */
  #injected = new Map<string, number>();

  /**
   * For `run(agent, input, { session, sessionInputCallback })`: the session's context built for
   * the turn's new input (knowledge searched for the new question, the budget counting it),
   * followed by that input. mem's own items in it (the user's facts, the summary, recalled
   * knowledge) are not stored when the runner hands them back to `addItems`.
   */
  readonly sessionInputCallback: SessionInputCallback = async (history, newItems) => {
    const next = validateItems(newItems).map(itemToMessage);
    this.#injected = new Map();
    // context({ next }) takes no system message: such input goes after the stored context.
    if (next.some((m) => m.role === 'system')) return [...history, ...newItems];
    const { messages } = await this.#session.context({ ...this.#model, next });
    const fresh = messages.flatMap(messageToItems);
    // The context ends with the new input (read back exactly): the runner gets its own objects.
    const head = fresh.length - newItems.length;
    if (head < 0 || newItems.some((item, i) => keyOf(fresh[head + i]!) !== keyOf(item))) {
      return [...history, ...newItems];
    }
    const stored = new Map<string, number>();
    for (const item of history) count(stored, keyOf(item));
    for (const item of fresh.slice(0, head)) {
      const key = keyOf(item);
      if (!take(stored, key)) count(this.#injected, key);
    }
    return [...fresh.slice(0, head), ...newItems];
  };

  constructor(options: MemAgentsSessionOptions) {
    const { engine, sessionId, userId, model } = (options ??
      {}) as Partial<MemAgentsSessionOptions>;
    if (typeof engine?.session !== 'function') {
      throw new MemValidationError(
        'engine',
        '[mem/openai-agents] options.engine must be a mem engine: pass createMemoryEngine({ profile, store }).',
      );
    }
    if (typeof sessionId !== 'string' || sessionId.length === 0) {
      throw new MemValidationError(
        'sessionId',
        '[mem/openai-agents] options.sessionId must be a non-empty string naming the conversation, e.g. a user or thread id.',
      );
    }
    if (userId !== undefined) checkUserId(userId);
    if (model !== undefined) modelCounting(model);
    this.#model = model === undefined ? {} : { model };
    this.#session =
      userId === undefined ? engine.session(sessionId) : engine.session(sessionId, { userId });
  }

  async getSessionId(): Promise<string> {
    return this.#session.id;
  }

  async getItems(limit?: number, _runContext?: RunContext): Promise<AgentInputItem[]> {
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw new MemValidationError(
        'limit',
        `[mem/openai-agents] getItems(limit): limit must be a non-negative integer or undefined, got ${String(limit)}.`,
      );
    }
    const { messages } = await this.#session.context(this.#model);
    const items = messages.flatMap(messageToItems);
    return limit === undefined ? items : items.slice(Math.max(0, items.length - limit));
  }

  async addItems(items: AgentInputItem[], runContext?: RunContext): Promise<void> {
    // Every item is checked before anything is stored: a bad one fails the whole batch.
    const valid = validateItems(items).filter((item) => !take(this.#injected, keyOf(item)));
    if (valid.length === 0) return;
    await this.#session.append(valid.map(itemToMessage), {
      ...this.#model,
      ...reportedUsage(runContext),
    });
  }

  async popItem(): Promise<AgentInputItem | undefined> {
    const message = await this.#session.pop();
    return message === null ? undefined : messageToItems(message).at(-1);
  }

  async clearSession(): Promise<void> {
    await this.#session.clear();
  }
}

const keyOf = (item: AgentInputItem) => JSON.stringify(item);
const count = (counts: Map<string, number>, key: string) =>
  counts.set(key, (counts.get(key) ?? 0) + 1);
/** Takes one of `key` from `counts`: false when there is none. */
function take(counts: Map<string, number>, key: string): boolean {
  const n = counts.get(key) ?? 0;
  if (n === 0) return false;
  if (n === 1) counts.delete(key);
  else counts.set(key, n - 1);
  return true;
}
