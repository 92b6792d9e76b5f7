/**
 * The user memory of the last replay, for the worker (replay-worker.ts): the user's facts as the
 * store has them now, and "forget this user". Only after a replay with a user.
 */
import type { UserFact } from '@mem/core';
import type { LiveSession } from '../replay/live-session.ts';
import type { UserFactView } from '../replay/replay-views.ts';
import { NO_REPLAY_TO_ASK } from './ask-question.ts';
import type { ForgetUserResponse, UserFactsResponse } from './contract.ts';
import { HttpError } from './http-json.ts';

/** The user of the replayed memory. @throws HttpError 409 without a replay, or one without a user. */
export function replayedUser(live: LiveSession | undefined): string {
  if (live === undefined) throw new HttpError(409, NO_REPLAY_TO_ASK);
  if (live.userId === undefined) {
    throw new HttpError(
      409,
      'The last replay had no user: replay with { "user": "<id>" } to give the memory a user, then read its facts.',
    );
  }
  return live.userId;
}

/** The answer of questions and chat turns after "forget this user". */
export function forgottenError(user: string): HttpError {
  return new HttpError(
    409,
    `The memory of user "${user}" was forgotten: replay to build it again (POST /api/replay with { "user": "${user}" }).`,
    { replayNeeded: true },
  );
}

/** The user's facts and stored sessions, once the background fact extraction has finished. */
export async function readUserFacts(
  live: LiveSession | undefined,
  forgotten: boolean,
): Promise<UserFactsResponse> {
  const user = replayedUser(live);
  await live!.engine.idle();
  const memory = live!.engine.user(user);
  const [facts, sessions] = await Promise.all([memory.facts(), memory.sessions()]);
  return { user, facts: facts.map(userFactView), sessions, forgotten };
}

/**
 * `engine.forgetUser(user)` for the user of the last replay, named in the request so that no
 * other user is forgotten by a stale page. @throws HttpError 409 for another user.
 */
export async function forgetReplayedUser(
  live: LiveSession | undefined,
  requested: string,
): Promise<ForgetUserResponse> {
  const user = replayedUser(live);
  if (requested !== user) {
    throw new HttpError(
      409,
      `The last replay's user is "${user}", not "${requested}": the playground forgets the user whose memory it holds.`,
      { field: 'user' },
    );
  }
  const { sessions, messages, facts, chunks } = await live!.engine.forgetUser(user);
  return {
    user,
    removed: { sessions, messages, facts, chunks },
    replayNeeded: true,
    message: `Forgot user "${user}": ${sessions} sessions, ${messages} messages, ${facts} facts and ${chunks} knowledge chunks removed. Replay to build the memory again; until then questions and the chat have nothing to use.`,
  };
}

function userFactView(fact: UserFact): UserFactView {
  const view: UserFactView = {
    id: fact.id,
    text: fact.text,
    sourceMessageIds: [...fact.sourceMessageIds],
    createdAt: fact.createdAt,
    updatedAt: fact.updatedAt,
  };
  if (fact.about !== undefined) view.about = fact.about;
  if (fact.sessionId !== undefined) view.sessionId = fact.sessionId;
  return view;
}
