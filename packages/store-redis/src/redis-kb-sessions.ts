import type { Cluster, Redis } from 'ioredis';
import { scanKeys } from './redis-connection.ts';
import { decodeSessionId, encodeSessionId } from './session-keys.ts';

/**
 * Ids of the sessions of a collection that hold chunks, sorted, found with SCAN (on every master
 * of a cluster): cost grows with the number of keys on the server.
 */
export async function kbSessions(
  client: Redis | Cluster,
  prefix: string,
  namespace: string,
  collectionId: string,
): Promise<string[]> {
  const head = `{${prefix}:kb:${namespace}:${collectionId}:`;
  const tail = '}:d';
  const found = await scanKeys(client, `${head}*${tail}`);
  const ids: string[] = [];
  for (const key of found) {
    const encoded = key.slice(head.length, key.length - tail.length);
    // The glob also matches longer collection ids that share this one as a prefix.
    if (!/^[A-Za-z0-9_-]+$/.test(encoded)) continue;
    const id = decodeSessionId(encoded);
    if (encodeSessionId(id) === encoded) ids.push(id);
  }
  return ids.sort();
}
