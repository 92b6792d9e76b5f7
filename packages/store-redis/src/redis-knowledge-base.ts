import { randomBytes } from 'node:crypto';
import { MemStoreError } from '@mem/core';
import {
  analyzeText,
  assertValidCollectionId,
  candidateDepth,
  embedTexts,
  fuseHits,
  KNOWLEDGE_BASE_SPECIFICATION_VERSION,
  type KnowledgeBase,
  type KnowledgeChunk,
  type KnowledgeCountFilter,
  type KnowledgeDeleteFilter,
  type KnowledgeSearchOptions,
  parseChunks,
  parseCountFilter,
  parseDeleteFilter,
  parseQuery,
  parseSearchOptions,
  type Ranked,
  rankHits,
  type ScoredHit,
  searchableText,
} from '@mem/core/backend';
import type { Cluster, Redis } from 'ioredis';
import { openConnection, storeError } from './redis-connection.ts';
import { addArguments } from './redis-kb-add-arguments.ts';
import { ChunkCache } from './redis-kb-chunk-cache.ts';
import { lexicalHits } from './redis-kb-lexical.ts';
import { SessionMirrors } from './redis-kb-mirror.ts';
import { PostingsCache } from './redis-kb-postings-cache.ts';
import type { SessionScope } from './redis-kb-read.ts';
import { KB_ADD, KB_DELETE, runKbScript } from './redis-kb-scripts.ts';
import { kbSessions } from './redis-kb-sessions.ts';
import {
  confirmUserSession,
  releaseUserSession,
  userScope,
  userSessionsKey,
} from './redis-kb-users.ts';
import {
  assertSameSpace,
  nearestHits,
  packVector,
  spaceKey,
  spaceOf,
  vectorsNeedEmbedder,
} from './redis-kb-vectors.ts';
import {
  checkRedisKnowledgeBaseOptions,
  type RedisKnowledgeBaseOptions,
} from './redis-knowledge-base-options.ts';
import { encodeSessionId } from './session-keys.ts';

export type { RedisKnowledgeBaseOptions } from './redis-knowledge-base-options.ts';

const SUFFIXES = ['d', 'c', 'w', 'p', 'm', 's', 'v', 'u'] as const;
const LABEL = 'mem/redis';
/** Sessions a delete by user works on at once. */
const PARALLEL_SESSIONS = 16;

/**
 * The eight keys of one (collection, session): the hash tag
 * `{prefix:kb:namespace:collection:session}` (session id as base64url, so no user text forms a
 * tag, a glob or a `:` boundary) puts them in one Redis Cluster slot, so every write is one
 * atomic Lua script.
 */
export function kbKeys(
  prefix: string,
  namespace: string,
  collectionId: string,
  sessionId: string,
): string[] {
  const tag = `{${prefix}:kb:${namespace}:${collectionId}:${encodeSessionId(sessionId)}}`;
  return SUFFIXES.map((suffix) => `${tag}:${suffix}`);
}

/**
 * A `KnowledgeBase` (spec `mem.kb.v2`) on Redis or Redis Cluster without RediSearch or any
 * module: BM25 and cosine similarity computed in TypeScript over plain hashes.
 *
 * - Keys: per (collection, session), eight hashes in one slot (see `kbKeys`): chunk ids, chunk
 *   JSON, each chunk's terms, postings per term (`" doc:tf:length ..."`), delete metadata,
 *   statistics, vectors (unit length, packed float32), and a summary index (summary id -> its
 *   chunks, so a compaction's delete reads no other chunk's metadata). `add` (per session of the batch)
 *   and `delete` are one Lua script each, so atomic; a bad batch changes nothing (it is
 *   validated, and embedded, before anything is sent).
 * - Lexical: text analyzed by core's `analyzeText` for index and query alike, BM25 (k1 1.2,
 *   b 0.75) over the searched sessions' statistics, the 8 rarest query terms. A search of one
 *   session is one read-only script (`KB_LEXICAL`: statistics, document frequencies from the
 *   per-term counters, the scored terms' postings, or only their entries added since this
 *   client last read them: `postingsCacheBytes`), scored here, then one HMGET for the hits'
 *   chunks that the chunk cache (`chunkCacheBytes`) does not hold.
 * - With an `embedder`: chunks are embedded on `add` and queries on `search`; a search reads
 *   every vector of the searched sessions and ranks them on the client (exact cosine), so its
 *   cost grows with the number of chunks searched: see the README. `retrieval` picks BM25,
 *   vectors, or both fused by Reciprocal Rank Fusion (`'hybrid'`, the default then). A namespace
 *   is bound to its first embedder (`{prefix:kb:namespace}:space`); another is refused.
 * - `search` with `sessionId` reads that session only. With `userId` (and no session) it reads
 *   the sessions that hold chunks of the user, listed in a set per (collection, user), so its
 *   work follows the user's chunks, not the keyspace; chunks of other users (or none) in those
 *   sessions are filtered out before ranking. Without either (and `count` without one) it SCANs
 *   the keyspace for the collection's sessions — on every master of a cluster — and reads each,
 *   so prefer searching one session or one user. Ties go to the newer chunk, then the smaller id.
 * - Users (v2): each chunk's user is stored with its session (`redis-kb-scripts.ts`); the set of
 *   a user's sessions is a superset kept without cross-slot scripts (`redis-kb-users.ts`).
 *   `delete({ userId })` goes session by session, each atomically, and leaves a session's entry
 *   in the set until its chunks of the user are gone, so a delete cut short is finished by
 *   running it again.
 */
export function createRedisKnowledgeBase(options: RedisKnowledgeBaseOptions): KnowledgeBase {
  const checked = checkRedisKnowledgeBaseOptions(options);
  const { prefix, namespace, embedder, retrieval, rrfK, minSimilarity } = checked;
  const cache = checked.chunkCacheBytes > 0 ? new ChunkCache(checked.chunkCacheBytes) : undefined;
  const postings =
    checked.postingsCacheBytes > 0 ? new PostingsCache(checked.postingsCacheBytes) : undefined;
  const handle = openConnection(options, checked.commandTimeoutMs);
  const client: Redis | Cluster = handle.client;
  const mirrors = checked.mirrorBytes > 0 ? new SessionMirrors(checked.mirrorBytes) : undefined;
  const lexical = { client, chunks: cache, postings, mirrors };
  const space = spaceKey(prefix, namespace);
  let closed = false;

  const assertOpen = (): void => {
    if (closed) {
      throw new MemStoreError(
        '[mem/redis] this knowledge base is closed; create a new one with createRedisKnowledgeBase().',
      );
    }
  };
  const begin = (collectionId: unknown): void => {
    assertValidCollectionId(collectionId);
    assertOpen();
  };
  const keysOf = (collectionId: string, sessionId: string) =>
    kbKeys(prefix, namespace, collectionId, sessionId);

  const usersKey = (collectionId: string, userId: string) =>
    userSessionsKey(prefix, namespace, collectionId, userId);

  const scopeOf = async (
    collectionId: string,
    sessionId: string | undefined,
    userId?: string,
  ): Promise<SessionScope[]> => {
    if (userId !== undefined) {
      return userScope(client, usersKey(collectionId, userId), userId, sessionId, (id) =>
        keysOf(collectionId, id),
      );
    }
    const ids =
      sessionId === undefined
        ? await kbSessions(client, prefix, namespace, collectionId)
        : [sessionId];
    return ids.map((id): SessionScope => ({ sessionId: id, keys: keysOf(collectionId, id) }));
  };

  /** The vectors of `chunks` and their space, embedded after the namespace's space is checked. */
  const embedChunks = async (chunks: readonly KnowledgeChunk[]) => {
    if (embedder === undefined) {
      const bound = await client.get(space);
      if (bound !== null) throw vectorsNeedEmbedder(bound, namespace);
      return { space: '', vectors: undefined };
    }
    // Refuse before paying for embeddings; bind (first writer wins) only once they are paid.
    assertSameSpace(await client.get(space), embedder, namespace);
    const texts = chunks.map(searchableText);
    const vectors = (await embedTexts(embedder, texts, 'document', LABEL)).map(packVector);
    assertOpen();
    const prior = (await client.call('SET', space, spaceOf(embedder), 'NX', 'GET')) as
      | string
      | null;
    assertSameSpace(prior, embedder, namespace);
    return { space: spaceOf(embedder), vectors };
  };

  /**
   * Every chunk of `userId` in the collection: session by session (each one script), each entry
   * leaving the user's set only after its session's chunks of the user are gone.
   */
  const deleteUser = async (collectionId: string, userId: string): Promise<number> => {
    const setKey = usersKey(collectionId, userId);
    const sessions = await client.smembers(setKey);
    let removed = 0;
    for (let i = 0; i < sessions.length; i += PARALLEL_SESSIONS) {
      const counts = await Promise.all(
        sessions.slice(i, i + PARALLEL_SESSIONS).map(async (sessionId) => {
          const keys = keysOf(collectionId, sessionId);
          const count = Number(await runKbScript(client, KB_DELETE, keys, ['user', userId]));
          await releaseUserSession(client, setKey, sessionId, keys[5] as string, userId);
          return count;
        }),
      );
      removed += counts.reduce((sum, n) => sum + n, 0);
    }
    return removed;
  };

  const guarded =
    <A extends unknown[], R>(operation: string, body: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await body(...args);
      } catch (error) {
        throw storeError(operation, error);
      }
    };

  return {
    specificationVersion: KNOWLEDGE_BASE_SPECIFICATION_VERSION,
    capabilities: Object.freeze({
      lexical: retrieval !== 'semantic',
      semantic: retrieval !== 'lexical',
      durable: true,
    }),
    namespace,

    add: guarded('add', async (collectionId: string, chunks: readonly KnowledgeChunk[]) => {
      begin(collectionId);
      const parsed = parseChunks(chunks);
      if (parsed.length === 0) return;
      const embedded = await embedChunks(parsed);
      const bySession = new Map<
        string,
        { users: string[]; args: (string | number | Buffer)[]; jsons: string[] }
      >();
      parsed.forEach((chunk, i) => {
        const batch = bySession.get(chunk.metadata.sessionId) ?? { users: [], args: [], jsons: [] };
        batch.users.push(chunk.metadata.userId ?? '');
        const args = addArguments(chunk, embedded.vectors?.[i] ?? '');
        batch.jsons.push(args[1] as string);
        batch.args.push(...args);
        bySession.set(chunk.metadata.sessionId, batch);
      });
      for (const [sessionId, { users, args, jsons }] of bySession) {
        const keys = keysOf(collectionId, sessionId);
        const epoch = randomBytes(12).toString('base64url');
        const run = (indexed: boolean) =>
          runKbScript(client, KB_ADD, keys, [
            embedded.space,
            users.length,
            indexed ? '1' : '0',
            ...users,
            ...args,
            epoch,
          ]) as Promise<string[]>;
        try {
          let [status, ...rest] = await run(false);
          if (status === 'index') {
            // The first chunks of a user in this session: the user's set lists it first.
            await Promise.all(rest.map((u) => client.sadd(usersKey(collectionId, u), sessionId)));
            [status, ...rest] = await run(true);
          }
          const [stored = '', count = '0', ...more] = rest;
          const docs = more.slice(0, Number(count));
          const fresh = more.slice(docs.length);
          await mirrors?.refresh(client, keys);
          // What this process wrote is what its next searches are likely to find.
          if (cache !== undefined && stored !== '') {
            docs.forEach((doc, i) => {
              const json = jsons[i] as string;
              const key = ChunkCache.key(keys[1] as string, stored, doc);
              cache.set(key, JSON.parse(json) as KnowledgeChunk, json.length);
            });
          }
          await Promise.all(
            fresh.map((u) => confirmUserSession(client, usersKey(collectionId, u), sessionId)),
          );
        } catch (error) {
          const refused = /^MEMSPACE (.*)$/s.exec((error as Error)?.message ?? '');
          if (refused === null) throw error;
          if (embedder === undefined) throw vectorsNeedEmbedder(refused[1] as string, namespace);
          assertSameSpace(refused[1] as string, embedder, namespace);
          throw error;
        }
      }
    }),

    search: guarded(
      'search',
      async (collectionId: string, query: string, searchOptions: KnowledgeSearchOptions) => {
        begin(collectionId);
        const text = parseQuery(query);
        const { topK, sessionId, userId } = parseSearchOptions(searchOptions);
        const terms = [...new Set(analyzeText(text))];
        if (terms.length === 0) return [];
        const scope = await scopeOf(collectionId, sessionId, userId);
        if (scope.length === 0) return [];
        if (embedder === undefined || retrieval === 'lexical') {
          return rankHits((await lexicalHits(lexical, scope, terms, topK)).map((h) => h.item));
        }
        const bound = await client.get(space);
        assertSameSpace(bound, embedder, namespace);
        const depth = candidateDepth(topK);
        let semantic: Ranked<ScoredHit>[] = [];
        if (bound !== null) {
          const [vector] = await embedTexts(embedder, [text], 'query', LABEL);
          assertOpen();
          if (vector !== undefined) {
            semantic = await nearestHits(client, scope, vector, depth, minSimilarity, cache);
          }
        }
        if (retrieval === 'semantic') return rankHits(semantic.slice(0, topK).map((h) => h.item));
        return fuseHits(await lexicalHits(lexical, scope, terms, depth), semantic, rrfK, topK);
      },
    ),

    delete: guarded('delete', async (collectionId: string, filter: KnowledgeDeleteFilter) => {
      begin(collectionId);
      const { sessionId, userId, messageIds, summaryIds } = parseDeleteFilter(filter);
      if (sessionId === undefined) {
        return userId === undefined ? 0 : deleteUser(collectionId, userId);
      }
      const keys = keysOf(collectionId, sessionId);
      const all = messageIds === undefined && summaryIds === undefined;
      const args: (string | number)[] = all
        ? userId === undefined
          ? ['all']
          : ['user', userId]
        : [
            'match',
            messageIds?.length ?? 0,
            ...(messageIds ?? []).map((id) => JSON.stringify(id)),
            summaryIds?.length ?? 0,
            ...(summaryIds ?? []).map((id) => JSON.stringify(id)),
            ...(userId === undefined ? [] : [userId]),
          ];
      const removed = Number(await runKbScript(client, KB_DELETE, keys, args));
      if (removed > 0) await mirrors?.refresh(client, keys);
      return removed;
    }),

    count: guarded('count', async (collectionId: string, filter?: KnowledgeCountFilter) => {
      begin(collectionId);
      const { sessionId, userId } = parseCountFilter(filter);
      const scope = await scopeOf(collectionId, sessionId, userId);
      if (userId !== undefined) return scope.reduce((sum, s) => sum + (s.owner?.count ?? 0), 0);
      const counts = await Promise.all(scope.map(({ keys }) => client.hlen(keys[0] as string)));
      return counts.reduce((sum, n) => sum + n, 0);
    }),

    close: async () => {
      if (closed) return;
      closed = true;
      mirrors?.close();
      if (handle.owned) client.disconnect();
    },
  };
}
