import { type MemoryEngine, type MemorySession, MemValidationError } from '@mem/core';
import type { AgentInputItem, Session } from '@openai/agents';
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
 */
export class MemAgentsSession implements Session {
  readonly #session: MemorySession;

  constructor(options: MemAgentsSessionOptions) {
    const { engine, sessionId } = (options ?? {}) as Partial<MemAgentsSessionOptions>;
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
    this.#session = engine.session(sessionId);
  }

  async getSessionId(): Promise<string> {
    return this.#session.id;
  }

  async getItems(limit?: number): Promise<AgentInputItem[]> {
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw new MemValidationError(
        'limit',
        `[mem/openai-agents] getItems(limit): limit must be a non-negative integer or undefined, got ${String(limit)}.`,
      );
    }
    const { messages } = await this.#session.context();
    const items = messages.flatMap(messageToItems);
    return limit === undefined ? items : items.slice(Math.max(0, items.length - limit));
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    // Every item is checked before anything is stored: a bad one fails the whole batch.
    const valid = validateItems(items);
    if (valid.length === 0) return;
    await this.#session.append(valid.map(itemToMessage));
  }

  async popItem(): Promise<AgentInputItem | undefined> {
    const message = await this.#session.pop();
    return message === null ? undefined : messageToItems(message).at(-1);
  }

  async clearSession(): Promise<void> {
    await this.#session.clear();
  }
}
