import { type LiveSession, openLiveSession } from '../replay/live-session.ts';
import { planTurns, slugify } from '../replay/plan-turns.ts';
import type { ReplayOptions, ReplayResult } from '../replay/replay-types.ts';

/** A finished replay whose memory thread stays open, so the live chat can continue it. */
export interface LiveReplay {
  result: ReplayResult;
  live: LiveSession;
}

/**
 * `replay()` (src/replay/replay.ts) without closing the store at the end: the same turn plan and
 * live session, driven turn by turn. The caller closes `live` when it starts the next replay.
 */
export async function replayKeepingSession(options: ReplayOptions): Promise<LiveReplay> {
  const { conversation } = options;
  const turns = planTurns(conversation);
  const live = await openLiveSession({
    profile: options.profile,
    store: options.store,
    ...(options.sqlitePath === undefined ? {} : { sqlitePath: options.sqlitePath }),
    ...(options.redisUrl === undefined ? {} : { redisUrl: options.redisUrl }),
    sessionId: slugify(conversation.title),
  });
  try {
    for (const [i, turn] of turns.entries()) {
      await live.turn(turn.user, turn.replies, { before: turn.before, day: turn.day });
      options.onProgress?.(i + 1, turns.length);
    }
  } catch (error) {
    await live.close().catch(() => undefined);
    throw error;
  }
  const result: ReplayResult = {
    conversationTitle: conversation.title,
    store: options.store,
    turns: [...live.turns],
    stats: live.stats(),
    detail: (turn) => live.detail(turn),
  };
  return { result, live };
}
