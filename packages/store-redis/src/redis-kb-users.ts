import type { Cluster, Redis } from 'ioredis';
import type { Candidate, SessionScope } from './redis-kb-read.ts';
import { encodeSessionId } from './session-keys.ts';

/*
 * Users in the Redis knowledge base (v2). Each chunk's user is kept in its session's stats hash
 * (`o:<doc>`, with a count per user `n:<userId>`: see redis-kb-scripts.ts). To find a user's
 * sessions without scanning the keyspace, each (collection, user) has a set of the sessions that
 * hold chunks of the user, under its own hash tag (`userSessionsKey`). As with the store's user
 * index it is a SUPERSET, kept so without a cross-slot script:
 *
 * - add: a batch that brings a user's first chunk to a session is refused by the add script
 *   until the client has added the session to the user's set (SADD first); after the add, the
 *   client checks the entry is still there (a remover may have taken it out in between).
 * - search and count by user read each listed session's `n:<userId>` and skip those at 0.
 * - delete by user: the session's chunks of the user go (one script), THEN the entry leaves the
 *   set, THEN the count is read again and the entry put back if chunks of the user came back.
 *   With the adder's check after its add, the one that runs last sees the other.
 */

/** The set of sessions of a collection holding chunks of `userId` (its own slot). */
export function userSessionsKey(
  prefix: string,
  namespace: string,
  collectionId: string,
  userId: string,
): string {
  return `{${prefix}:kbu:${namespace}:${collectionId}:${encodeSessionId(userId)}}:s`;
}

/**
 * The sessions to search or count for `userId` (only `sessionId` when given), each with its
 * keys, and whether it also holds chunks that are not the user's (then its candidates are
 * filtered by owner). Sessions without a chunk of the user are left out.
 */
export async function userScope(
  client: Redis | Cluster,
  setKey: string,
  userId: string,
  sessionId: string | undefined,
  keysOf: (sessionId: string) => string[],
): Promise<SessionScope[]> {
  const ids = sessionId === undefined ? (await client.smembers(setKey)).sort() : [sessionId];
  const scope = ids.map((id): SessionScope => ({ sessionId: id, keys: keysOf(id) }));
  const stats = await Promise.all(
    scope.map(({ keys }) => client.hmget(keys[5] as string, `n:${userId}`, 'docs')),
  );
  return scope.flatMap((session, i) => {
    const [mine, docs] = (stats[i] as (string | null)[]).map(Number);
    if (!(mine !== undefined && mine > 0)) return [];
    return [{ ...session, owner: { userId, count: mine, mixed: mine !== docs } }];
  });
}

/**
 * The candidates of sessions scoped to a user, without those of other owners: sessions that
 * hold only the user's chunks pass as they are; for the others the owners of their candidates
 * are read (one HMGET per such session).
 */
export async function ownCandidates(
  client: Redis | Cluster,
  scope: readonly SessionScope[],
  scored: Candidate[],
): Promise<Candidate[]> {
  const mixed = new Map<number, Candidate[]>();
  const kept: Candidate[] = [];
  for (const candidate of scored) {
    const owner = scope[candidate.session]?.owner;
    if (owner === undefined || !owner.mixed) {
      kept.push(candidate);
      continue;
    }
    const list = mixed.get(candidate.session) ?? [];
    list.push(candidate);
    mixed.set(candidate.session, list);
  }
  await Promise.all(
    [...mixed].map(async ([session, list]) => {
      const { keys, owner } = scope[session] as SessionScope;
      const owners = await client.hmget(keys[5] as string, ...list.map((c) => `o:${c.doc}`));
      list.forEach((candidate, i) => {
        if (owners[i] === owner?.userId) kept.push(candidate);
      });
    }),
  );
  return kept;
}

/** After a write that brought `userId`'s first chunks to `sessionId`: the set lists it. */
export async function confirmUserSession(
  client: Redis | Cluster,
  setKey: string,
  sessionId: string,
): Promise<void> {
  if ((await client.sismember(setKey, sessionId)) === 0) await client.sadd(setKey, sessionId);
}

/**
 * Takes `sessionId` out of the user's set once its chunks of the user are deleted, and puts it
 * back if some came back meanwhile (`statsKey`: the session's stats hash).
 */
export async function releaseUserSession(
  client: Redis | Cluster,
  setKey: string,
  sessionId: string,
  statsKey: string,
  userId: string,
): Promise<void> {
  await client.srem(setKey, sessionId);
  if ((await client.hget(statsKey, `n:${userId}`)) !== null) await client.sadd(setKey, sessionId);
}
