import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import type { BaseMessage } from '@langchain/core/messages';
import { type MemoryEngine, type MemorySession, MemValidationError } from '@mem/core';
import { fromLangChainMessage } from './convert/from-langchain.ts';
import { toLangChainMessages } from './convert/to-langchain.ts';
import { checkUserId, sessionOptions } from './user-id.ts';

export interface MemChatMessageHistoryOptions {
  /** The mem engine (its profile, store, summarizer and knowledge base) the session lives in. */
  engine: MemoryEngine;
  /** The conversation: one mem session per id (`RunnableWithMessageHistory`'s session id). */
  sessionId: string;
  /**
   * The user the conversation belongs to (checked like a session id). The session is bound to the
   * user on its first write: the user's other conversations are recalled into its messages
   * (profile `knowledge_base.scope`), the user's facts join them, and `engine.forgetUser(userId)`
   * erases it. A session stored for another user is refused (`MemValidationError`, field
   * `userId`). Omitted: a session without a user.
   */
  userId?: string;
}

/**
 * A LangChain chat message history on a mem session, on any mem store.
 *
 * `getMessages()` returns mem's context for the session, what the model should see next: pinned
 * system prompts, the summary of older turns, recalled knowledge, then the window the profile's
 * short-term strategy (`max_tokens`) keeps — never a tool call without its result. With no
 * short-term strategy in the profile it is the whole active conversation (turns a long-term
 * strategy summarized are represented by their summary). `getHistory()` returns every original
 * message. Messages are stored losslessly (see `fromLangChainMessages`).
 */
export class MemChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ['mem', 'langchain', 'chat_history'];

  /** The mem session behind this history. */
  readonly session: MemorySession;

  constructor(options: MemChatMessageHistoryOptions) {
    super(options);
    if (typeof options?.engine?.session !== 'function') {
      throw new MemValidationError(
        'engine',
        '[mem/langchain] MemChatMessageHistory needs { engine }: a mem engine from createMemoryEngine({ profile, store }).',
      );
    }
    if (typeof options.sessionId !== 'string') {
      throw new MemValidationError(
        'sessionId',
        `[mem/langchain] sessionId must be a string naming the conversation, got ${typeof options.sessionId}.`,
      );
    }
    const userId =
      options.userId === undefined
        ? undefined
        : checkUserId(options.userId, 'userId', 'MemChatMessageHistory');
    this.session = options.engine.session(options.sessionId, sessionOptions(userId));
  }

  /** mem's context for the session (window, summary, recalled knowledge), as LangChain messages. */
  async getMessages(): Promise<BaseMessage[]> {
    const context = await this.session.context();
    return toLangChainMessages(context.messages);
  }

  /** Every surviving original message of the session, oldest first. */
  async getHistory(): Promise<BaseMessage[]> {
    return toLangChainMessages(await this.session.history());
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /** Appends the messages in one atomic store write. */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.session.append(messages.map((m, i) => fromLangChainMessage(m, i)));
  }

  override async clear(): Promise<void> {
    await this.session.clear();
  }
}
