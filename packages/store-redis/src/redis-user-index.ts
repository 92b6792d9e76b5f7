import type { ForgetUserResult } from '@mem/core/backend';
import type { Cluster, Redis } from 'ioredis';
import { runScript } from './redis-connection.ts';
import { sessionKeys, userKeys } from './session-keys.ts';
import { FORGET_FACTS, FORGET_SESSION } from './user-scripts.ts';

/*
 * The index of a user's sessions (Store v3). A session's binding is stored with the session (the
 * `user` field of its meta hash, written atomically with the append that binds it); the index is
 * a sorted set under the user's own hash tag (`userKeys`), all scores 0, members the session ids.
 * Session and index sit in different slots on a cluster, so no script can write both, and the
 * index is kept a SUPERSET of the sessions bound to the user:
 *
 * - Binding: the index gets the session FIRST (ZADD, idempotent), then the append script binds
 *   (it refuses to bind before the client says the index holds the session). The binding append
 *   then checks the entry is still there (re-adding it), because a remover may have taken it out
 *   between the two steps (see below).
 * - Reading (`list({ userId })`, `forgetUser`): every candidate's own binding is checked; an
 *   entry whose session is not bound to the user any more (cleared, re-bound to another user
 *   after a clear, expired, imported over) is stale and skipped.
 * - Removing a stale entry (`forgetUser` only): ZREM, THEN read the binding again and put the
 *   entry back if the session is now bound to the user. With the binder's check after its bind,
 *   whichever of the two runs last sees the other, so no bound session is ever left out.
 *
 * Stale entries are harmless and cheap (a session id); `forgetUser` removes them. TTL: the index
 * and the facts have no expiry; an expired session leaves a stale entry.
 */

/** The client and the key parts a store works with. */
export interface UserContext {
  client: Redis | Cluster;
  prefix: string;
  namespace: string;
}

/** Index entries `forgetUser` works on at once. */
const PAGE = 100;

/** Adds `sessionId` to `userId`'s index (before a binding write). */
export async function indexSession(ctx: UserContext, userId: string, sessionId: string) {
  await ctx.client.zadd(userKeys(ctx.prefix, ctx.namespace, userId).index, 0, sessionId);
}

/** After a write that bound `sessionId` to `userId`: the index entry is there (re-added if not). */
export async function confirmIndexed(ctx: UserContext, userId: string, sessionId: string) {
  const { index } = userKeys(ctx.prefix, ctx.namespace, userId);
  if ((await ctx.client.zscore(index, sessionId)) === null) {
    await ctx.client.zadd(index, 0, sessionId);
  }
}

/** Whether each session is live and bound to `userId`, by its own meta hash. */
async function boundTo(ctx: UserContext, userId: string, ids: readonly string[]) {
  const heads = await Promise.all(
    ids.map((id) =>
      ctx.client.hmget(sessionKeys(ctx.prefix, ctx.namespace, id)[0] as string, 'state', 'user'),
    ),
  );
  return heads.map(([state, user]) => state === 'live' && user === userId);
}

/** Up to `count` index entries after `after` (all when undefined), in byte order. */
function entriesAfter(ctx: UserContext, index: string, after: string | undefined, count: number) {
  const from = after === undefined ? '-' : `(${after}`;
  return ctx.client.zrangebylex(index, from, '+', 'LIMIT', 0, count);
}

/**
 * One page of the sessions bound to `userId`, in the byte order of their UTF-8 ids, after
 * `after`: at most `limit` ids, and whether more may follow. Stale entries are skipped.
 */
export async function listUserSessions(
  ctx: UserContext,
  userId: string,
  after: string | undefined,
  limit: number,
): Promise<{ sessionIds: string[]; more: boolean }> {
  const { index } = userKeys(ctx.prefix, ctx.namespace, userId);
  const found: string[] = [];
  let from = after;
  for (;;) {
    const batch = await entriesAfter(ctx, index, from, limit + 1);
    const bound = await boundTo(ctx, userId, batch);
    batch.forEach((id, i) => {
      if (bound[i]) found.push(id);
    });
    if (found.length > limit || batch.length <= limit) break;
    from = batch[batch.length - 1];
  }
  return { sessionIds: found.slice(0, limit), more: found.length > limit };
}

/**
 * Everything of `userId`: page by page through the index, each session erased by a script that
 * checks, atomically in the session's slot, that it is still bound to the user; then the page's
 * entries leave the index (put back if a session was bound again meanwhile); then the facts. A
 * run killed half-way leaves whole sessions and their entries, so running it again finishes.
 */
export async function forgetUserOnRedis(
  ctx: UserContext,
  userId: string,
): Promise<ForgetUserResult> {
  const { index, facts } = userKeys(ctx.prefix, ctx.namespace, userId);
  const result = { sessions: 0, messages: 0, facts: 0 };
  let after: string | undefined;
  for (;;) {
    const page = await entriesAfter(ctx, index, after, PAGE);
    if (page.length === 0) break;
    const erased = await Promise.all(
      page.map(
        (id) =>
          runScript(ctx.client, FORGET_SESSION, sessionKeys(ctx.prefix, ctx.namespace, id), [
            userId,
          ]) as Promise<[number, number]>,
      ),
    );
    for (const [sessions, messages] of erased) {
      result.sessions += Number(sessions);
      result.messages += Number(messages);
    }
    await ctx.client.zrem(index, ...page);
    const again = await boundTo(ctx, userId, page);
    const back = page.filter((_, i) => again[i]);
    if (back.length > 0) await ctx.client.zadd(index, ...back.flatMap((id) => [0, id]));
    after = page[page.length - 1];
  }
  result.facts = Number(await runScript(ctx.client, FORGET_FACTS, [facts], []));
  return result;
}
