import type { Message } from '@mem/core';
import type { Conversation } from './replay-types.ts';

/** One user turn of a conversation, ready to replay. */
export interface PlannedTurn {
  /** The conversation session (day). */
  day: string;
  /** Messages before the user message that belong to no earlier turn (system prompts). */
  before: Message[];
  user: Message;
  /** Everything after the user message up to the next user message of the same session. */
  replies: Message[];
}

export interface PlanOptions {
  /**
   * Each session is replayed as its own mem session (a replay with a user): a session keeps its
   * own system prompt even when it repeats the first session's. Default false: ONE thread.
   */
  sessionsApart?: boolean;
}

/**
 * Cuts the conversation into user turns, the sessions following each other in ONE thread. A
 * later session's system message with the same content as the first system message is dropped
 * (the thread already has it), unless `sessionsApart`; anything else before a session's first
 * user message opens that turn. Messages after the last user message of a session are replies of
 * that turn.
 */
export function planTurns(conversation: Conversation, options: PlanOptions = {}): PlannedTurn[] {
  const turns: PlannedTurn[] = [];
  let firstSystem: string | undefined;
  let before: Message[] = [];
  for (const session of conversation.sessions) {
    let current: PlannedTurn | undefined;
    for (const message of session.messages) {
      if (message.role === 'system') {
        const content = JSON.stringify(message.content);
        if (firstSystem === undefined) firstSystem = content;
        else if (content === firstSystem && current === undefined && !options.sessionsApart)
          continue;
      }
      if (message.role === 'user') {
        current = { day: session.id, before, user: message, replies: [] };
        turns.push(current);
        before = [];
      } else if (current === undefined) before.push(message);
      else current.replies.push(message);
    }
  }
  // Messages after the last user message of the whole conversation, e.g. a closing system note.
  if (before.length > 0) turns.at(-1)?.replies.push(...before);
  return turns;
}

/** A session id from a title: lower-case words joined by `-` (at most 64 characters). */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug.length > 0 ? slug : 'conversation';
}
