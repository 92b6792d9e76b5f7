import {
  analyzeText,
  assertValidCollectionId,
  type ConfigIssue,
  KNOWLEDGE_BASE_SPECIFICATION_VERSION,
  type KnowledgeBase,
  type KnowledgeChunk,
  type KnowledgeCountFilter,
  type KnowledgeDeleteFilter,
  type KnowledgeHit,
  type KnowledgeSearchOptions,
  MemConfigError,
  MemError,
  MemStoreError,
  parseChunks,
  parseCountFilter,
  parseDeleteFilter,
  parseQuery,
  parseSearchOptions,
} from '@mem/core';
import type { Cluster, Redis } from 'ioredis';
import { openConnection, runScript, scanKeys, storeError } from './redis-connection.ts';
import { KB_ADD, KB_DELETE } from './redis-kb-scripts.ts';
import type { RedisConnection } from './redis-store-options.ts';
import { checkRedisStoreOptions } from './redis-store-options.ts';
import { decodeSessionId, encodeSessionId } from './session-keys.ts';

export type RedisKnowledgeBaseOptions = RedisConnection & {
  /** First part of every key: 1-64 letters, digits, `_`, `-` or `.`. Default `'mem'`. */
  prefix?: string;
  /** The tenant: 1-64 letters, digits, `_` or `-`. Default `'default'`. */
  namespace?: string;
  /** A command with no reply within this many ms fails. Default 5,000. */
  commandTimeoutMs?: number;
};

/** BM25 term-frequency saturation. */
const K1 = 1.2;
/** BM25 length normalization. */
const B = 0.75;
/** Most query terms a search scores: the rarest ones (like the in-memory knowledge base). */
const MAX_QUERY_TERMS = 8;
const SUFFIXES = ['d', 'c', 'w', 'p', 'm', 's'] as const;

/**
 * The six keys of one (collection, session): the hash tag `{prefix:kb:namespace:collection:session}`
 * (session id as base64url, so no user text forms a tag, a glob or a `:` boundary) puts them in
 * one Redis Cluster slot, so every write is one atomic Lua script.
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

/** A posting: doc number, term frequency, doc length. */
interface Posting {
  doc: string;
  tf: number;
  length: number;
}

/** What one session holds for a query: its statistics and the postings of the query terms. */
interface SessionPostings {
  sessionId: string;
  keys: string[];
  docs: number;
  length: number;
  postings: Map<string, Posting[]>;
}

/**
 * A `KnowledgeBase` (spec `mem.kb.v1`) on Redis or Redis Cluster without RediSearch: lexical
 * BM25 (k1 1.2, b 0.75) scored in TypeScript over an inverted index kept in plain hashes.
 *
 * - Keys: per (collection, session), six hashes in one slot (see `kbKeys`): chunk ids, chunk
 *   JSON, each chunk's terms, postings per term (`" doc:tf:length ..."`), delete metadata and
 *   statistics. `add` (per session of the batch) and `delete` are one Lua script each, so
 *   atomic; a bad batch changes nothing (it is validated before anything is sent).
 * - Text is analyzed by core's `analyzeText` for index and query alike. At most the 8 rarest
 *   query terms are scored. Ties go to the newer chunk (`metadata.createdAt`), then the smaller id.
 * - `search` with `sessionId` reads that session's statistics and the postings of the query
 *   terms (2 commands, one round trip), then the chunks of the top hits. Without `sessionId`
 *   (and `count` without one) it SCANs the keyspace for the collection's sessions — on every
 *   master of a cluster — and reads each: cost grows with the size of the keyspace and the
 *   number of sessions in the collection, so prefer searching one session. Statistics are then
 *   those of every session of the collection together.
 */
export function createRedisKnowledgeBase(options: RedisKnowledgeBaseOptions): KnowledgeBase {
  const { prefix, namespace, commandTimeoutMs } = checkOptions(options);
  const handle = openConnection(options, commandTimeoutMs);
  const client: Redis | Cluster = handle.client;
  let closed = false;

  const begin = (collectionId: unknown): void => {
    assertValidCollectionId(collectionId);
    if (closed) {
      throw new MemStoreError(
        '[mem/redis] this knowledge base is closed; create a new one with createRedisKnowledgeBase().',
      );
    }
  };
  const keysOf = (collectionId: string, sessionId: string) =>
    kbKeys(prefix, namespace, collectionId, sessionId);

  /** Session ids of the collection that hold chunks, found with SCAN. */
  const sessionsOf = async (collectionId: string): Promise<string[]> => {
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
  };

  const readPostings = async (
    collectionId: string,
    sessionId: string,
    terms: readonly string[],
  ): Promise<SessionPostings> => {
    const keys = keysOf(collectionId, sessionId);
    const [stats, lists] = await Promise.all([
      client.hmget(keys[5]!, 'docs', 'len'),
      client.hmget(keys[3]!, ...terms),
    ]);
    const postings = new Map<string, Posting[]>();
    terms.forEach((term, i) => {
      const list = lists[i];
      if (list === null || list === undefined) return;
      const parsed: Posting[] = [];
      for (const entry of list.split(' ')) {
        if (entry === '') continue;
        const [doc, tf, length] = entry.split(':');
        parsed.push({ doc: doc!, tf: Number(tf), length: Number(length) });
      }
      postings.set(term, parsed);
    });
    return {
      sessionId,
      keys,
      docs: Number(stats[0] ?? 0),
      length: Number(stats[1] ?? 0),
      postings,
    };
  };

  const search = async (
    collectionId: string,
    terms: readonly string[],
    topK: number,
    sessionId: string | undefined,
  ): Promise<KnowledgeHit[]> => {
    const sessionIds = sessionId === undefined ? await sessionsOf(collectionId) : [sessionId];
    const sessions = await Promise.all(
      sessionIds.map((id) => readPostings(collectionId, id, terms)),
    );
    const docs = sessions.reduce((sum, s) => sum + s.docs, 0);
    if (docs <= 0) return [];
    const averageLength = Math.max(sessions.reduce((sum, s) => sum + s.length, 0) / docs, 1e-9);
    // Term weights over the whole searched scope; keep the rarest MAX_QUERY_TERMS.
    const weighted = terms
      .map((term) => {
        const frequency = sessions.reduce((sum, s) => sum + (s.postings.get(term)?.length ?? 0), 0);
        return { term, frequency, idf: bm25Idf(docs, frequency) };
      })
      .filter((t) => t.frequency > 0)
      .sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1))
      .slice(0, MAX_QUERY_TERMS);
    if (weighted.length === 0) return [];

    const scored: { session: number; doc: string; score: number }[] = [];
    sessions.forEach((s, index) => {
      const scores = new Map<string, number>();
      for (const { term, idf } of weighted) {
        for (const { doc, tf, length } of s.postings.get(term) ?? []) {
          const norm = K1 * (1 - B + (B * length) / averageLength);
          const add = (idf * (K1 + 1) * tf) / (tf + norm);
          scores.set(doc, (scores.get(doc) ?? 0) + add);
        }
      }
      for (const [doc, score] of scores) scored.push({ session: index, doc, score });
    });
    scored.sort((a, b) => b.score - a.score);
    // Every candidate that could still make the top k after tie-breaking.
    const cut = scored[Math.min(topK, scored.length) - 1]!.score;
    const candidates = scored.filter((c) => c.score >= cut);
    const texts = await Promise.all(
      candidates.map((c) => client.hget(sessions[c.session]!.keys[1]!, c.doc)),
    );
    const hits: { chunk: KnowledgeChunk; score: number }[] = [];
    candidates.forEach((c, i) => {
      const text = texts[i];
      // A chunk replaced or deleted between the two reads is left out.
      if (typeof text === 'string') hits.push({ chunk: JSON.parse(text), score: c.score });
    });
    hits.sort(
      (a, b) =>
        b.score - a.score ||
        b.chunk.metadata.createdAt - a.chunk.metadata.createdAt ||
        (a.chunk.id < b.chunk.id ? -1 : a.chunk.id > b.chunk.id ? 1 : 0),
    );
    return hits.slice(0, topK).map((hit, i) => ({ ...hit, rank: i + 1 }));
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
    capabilities: { lexical: true, semantic: false, durable: true },
    namespace,

    add: guarded('add', async (collectionId: string, chunks: readonly KnowledgeChunk[]) => {
      begin(collectionId);
      const parsed = parseChunks(chunks);
      const bySession = new Map<string, (string | number)[][]>();
      for (const chunk of parsed) {
        const counts = new Map<string, number>();
        const terms = analyzeText(chunk.text);
        for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
        const { metadata } = chunk;
        const meta = encodeMeta([
          JSON.stringify(chunk.id),
          metadata.summaryId === undefined ? '' : JSON.stringify(metadata.summaryId),
          ...metadata.messageIds.map((id) => JSON.stringify(id)),
        ]);
        const args: (string | number)[] = [
          JSON.stringify(chunk.id),
          JSON.stringify(chunk),
          meta,
          terms.length,
          counts.size,
        ];
        for (const [term, tf] of counts) args.push(term, tf);
        const list = bySession.get(metadata.sessionId) ?? [];
        list.push(args);
        bySession.set(metadata.sessionId, list);
      }
      for (const [sessionId, list] of bySession) {
        await runScript(client, KB_ADD, keysOf(collectionId, sessionId), [
          list.length,
          ...list.flat(),
        ]);
      }
    }),

    search: guarded(
      'search',
      async (collectionId: string, query: string, searchOptions: KnowledgeSearchOptions) => {
        begin(collectionId);
        const text = parseQuery(query);
        const { topK, sessionId } = parseSearchOptions(searchOptions);
        const terms = [...new Set(analyzeText(text))];
        if (terms.length === 0) return [];
        return await search(collectionId, terms, topK, sessionId);
      },
    ),

    delete: guarded('delete', async (collectionId: string, filter: KnowledgeDeleteFilter) => {
      begin(collectionId);
      const { sessionId, messageIds, summaryIds } = parseDeleteFilter(filter);
      const keys = keysOf(collectionId, sessionId);
      const args: (string | number)[] =
        messageIds === undefined && summaryIds === undefined
          ? ['all']
          : [
              'match',
              messageIds?.length ?? 0,
              ...(messageIds ?? []).map((id) => JSON.stringify(id)),
              summaryIds?.length ?? 0,
              ...(summaryIds ?? []).map((id) => JSON.stringify(id)),
            ];
      return Number(await runScript(client, KB_DELETE, keys, args));
    }),

    count: guarded('count', async (collectionId: string, filter?: KnowledgeCountFilter) => {
      begin(collectionId);
      const { sessionId } = parseCountFilter(filter);
      const sessionIds = sessionId === undefined ? await sessionsOf(collectionId) : [sessionId];
      const counts = await Promise.all(
        sessionIds.map((id) => client.hlen(keysOf(collectionId, id)[0]!)),
      );
      return counts.reduce((sum, n) => sum + n, 0);
    }),

    close: async () => {
      if (closed) return;
      closed = true;
      if (handle.owned) client.disconnect();
    },
  };
}

/** Lucene's BM25 idf: never negative, even for a term in every document. */
function bm25Idf(documents: number, frequency: number): number {
  return Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));
}

/** Strings as `byteLength:text...`, which the delete script splits without cjson. */
function encodeMeta(fields: readonly string[]): string {
  return fields.map((f) => `${Buffer.byteLength(f, 'utf8')}:${f}`).join('');
}

function checkOptions(options: RedisKnowledgeBaseOptions) {
  try {
    return checkRedisStoreOptions(options);
  } catch (error) {
    if (MemError.isInstance(error) && error instanceof MemConfigError) {
      const issues: ConfigIssue[] = [...error.issues];
      throw new MemConfigError(issues, { source: 'createRedisKnowledgeBase options' });
    }
    throw error;
  }
}
