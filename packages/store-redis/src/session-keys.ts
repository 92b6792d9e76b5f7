/** Suffixes of the five keys of one session, in the order every Lua script takes them. */
export const KEY_SUFFIXES = ['m', 'a', 'r', 's', 'x'] as const;

/**
 * The session id as key text: base64url of its UTF-8 bytes, so no user text can form a hash tag,
 * a glob pattern or a `:` boundary, and distinct ids never collide.
 */
export function encodeSessionId(sessionId: string): string {
  return Buffer.from(sessionId, 'utf8').toString('base64url');
}

export function decodeSessionId(encoded: string): string {
  return Buffer.from(encoded, 'base64url').toString('utf8');
}

/**
 * `${prefix}:{${namespace}:${encodedId}}:${suffix}` for every suffix: the hash tag
 * `{namespace:encodedId}` puts all keys of a session in one Redis Cluster slot.
 */
export function sessionKeys(prefix: string, namespace: string, sessionId: string): string[] {
  const base = `${prefix}:{${namespace}:${encodeSessionId(sessionId)}}`;
  return KEY_SUFFIXES.map((suffix) => `${base}:${suffix}`);
}

/**
 * The keys of one user, under the user's own hash tag `{namespace:u:base64url(userId)}` (a
 * session's tag never holds a `:` after the namespace, so the two never meet): the user's index
 * (a sorted set, all scores 0, of the ids of the sessions bound to the user: a superset, see
 * `redis-user-index.ts`) and the user's facts (a hash: `version`, `facts` JSON, `n` facts).
 */
export function userKeys(
  prefix: string,
  namespace: string,
  userId: string,
): { index: string; facts: string } {
  const base = `${prefix}:{${namespace}:u:${encodeSessionId(userId)}}`;
  return { index: `${base}:ix`, facts: `${base}:f` };
}

/** SCAN pattern of the meta keys of a namespace (prefix and namespace hold no glob characters). */
export function metaKeyPattern(prefix: string, namespace: string): string {
  return `${prefix}:{${namespace}:*}:m`;
}

/** The session id of a meta key matched by `metaKeyPattern`, or undefined for any other key. */
export function sessionIdOfMetaKey(
  prefix: string,
  namespace: string,
  key: string,
): string | undefined {
  const head = `${prefix}:{${namespace}:`;
  const tail = '}:m';
  if (!key.startsWith(head) || !key.endsWith(tail)) return undefined;
  const encoded = key.slice(head.length, key.length - tail.length);
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined;
  const id = decodeSessionId(encoded);
  return encodeSessionId(id) === encoded ? id : undefined;
}
