import { scanKeys } from './redis-connection.ts';
import type { UserContext } from './redis-user-index.ts';
import { metaKeyPattern, sessionIdOfMetaKey, sessionKeys } from './session-keys.ts';

/**
 * One page of every live session of the namespace after `after`, sorted by UTF-16 code units:
 * SCAN (on every master of a cluster), never KEYS, then the state of the next `limit + 1`
 * candidates at a time. Cost: O(sessions in the namespace) per page.
 */
export async function listSessions(
  ctx: UserContext,
  after: string | undefined,
  limit: number,
): Promise<{ sessionIds: string[]; more: boolean }> {
  const { client, prefix, namespace } = ctx;
  const found = await scanKeys(client, metaKeyPattern(prefix, namespace));
  const candidates = [
    ...new Set(
      found
        .map((key) => sessionIdOfMetaKey(prefix, namespace, key))
        .filter((id): id is string => id !== undefined && (after === undefined || id > after)),
    ),
  ].sort();
  const live: string[] = [];
  for (let i = 0; i < candidates.length && live.length <= limit; i += limit + 1) {
    const chunk = candidates.slice(i, i + limit + 1);
    const states = await Promise.all(
      chunk.map((id) => client.hget(sessionKeys(prefix, namespace, id)[0] as string, 'state')),
    );
    chunk.forEach((id, j) => {
      if (states[j] === 'live') live.push(id);
    });
  }
  return { sessionIds: live.slice(0, limit), more: live.length > limit };
}
