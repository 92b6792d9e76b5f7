import { type LiveSession, openLiveSession } from './live-session.ts';
import { planTurns, slugify } from './plan-turns.ts';
import type { ReplayOptions, ReplayResult, UserReplayView } from './replay-types.ts';

/** A finished replay whose memory thread is still open, so a live chat can continue it. */
export interface LiveReplay {
  result: ReplayResult;
  live: LiveSession;
}

/** The mem session a conversation session becomes in a replay with a user. */
export function userSessionId(userId: string, conversationSessionId: string): string {
  return `${userId}:${conversationSessionId}`;
}

/** The new session of the user that questions and the chat run in after a replay with a user. */
export function chatSessionId(userId: string): string {
  return `${userId}:playground-chat`;
}

/**
 * Replays a conversation through a profile, as ONE memory thread (session id: a slug of the
 * title) whose sessions are consecutive days. Per user turn: append the user message, let due
 * long-term strategies finish, take the context the LLM would get, append the replies, wait for
 * compactions again. The store is closed at the end; `detail(turn)` reads what was recorded.
 *
 * With `userId`, each session of the conversation is its own mem session of that user, and the
 * replay ends in a new, empty session of the user (see `ReplayOptions.userId`).
 */
export async function replay(options: ReplayOptions): Promise<ReplayResult> {
  const { result, live } = await replayKeepingSession(options);
  await live.close();
  return result;
}

/** `replay` without closing the thread: the caller closes `live` when it is done with it. */
export async function replayKeepingSession(options: ReplayOptions): Promise<LiveReplay> {
  const started = performance.now();
  const { conversation, userId } = options;
  const turns = planTurns(conversation, { sessionsApart: userId !== undefined });
  const user: UserReplayView | undefined =
    userId === undefined
      ? undefined
      : {
          id: userId,
          sessions: conversation.sessions.map((s) => ({
            sessionId: userSessionId(userId, s.id),
            conversationSessionId: s.id,
            title: s.title,
          })),
          chatSessionId: chatSessionId(userId),
        };
  const live = await openLiveSession({
    profile: options.profile,
    store: options.store,
    ...(options.sqlitePath === undefined ? {} : { sqlitePath: options.sqlitePath }),
    ...(options.tempRoot === undefined ? {} : { tempRoot: options.tempRoot }),
    ...(options.redisUrl === undefined ? {} : { redisUrl: options.redisUrl }),
    ...(userId === undefined ? {} : { userId }),
    sessionId:
      userId === undefined
        ? slugify(conversation.title)
        : userSessionId(userId, turns[0]?.day ?? 'empty'),
  });
  try {
    for (const [i, turn] of turns.entries()) {
      options.signal?.throwIfAborted();
      if (userId !== undefined) await live.switchSession(userSessionId(userId, turn.day));
      await live.turn(turn.user, turn.replies, { before: turn.before, day: turn.day });
      options.onProgress?.(i + 1, turns.length);
    }
    if (user !== undefined) await live.switchSession(user.chatSessionId);
  } catch (error) {
    await live.close().catch(() => undefined);
    throw error;
  }
  const result: ReplayResult = {
    conversationTitle: conversation.title,
    store: options.store,
    turns: [...live.turns],
    // Time per turn is the engine's work per turn; total time is the whole replay, wall clock.
    stats: { ...live.stats(), totalMs: performance.now() - started },
    ...(user === undefined ? {} : { user }),
    detail: (turn) => live.detail(turn),
  };
  return { result, live };
}
