import { MemConfigError } from '@mem/core';
import {
  type Embedder,
  keepsSimilarity,
  normalizeVector,
  type Ranked,
  type ScoredHit,
} from '@mem/core/backend';
import type { Cluster, Redis } from 'ioredis';
import type { ChunkCache } from './redis-kb-chunk-cache.ts';
import { type Candidate, readRanked, type SessionScope } from './redis-kb-read.ts';
import { ownCandidates } from './redis-kb-users.ts';

const SOURCE = 'createRedisKnowledgeBase options';
/** Vectors are stored little-endian; on such a platform a Float32Array's bytes are that already. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * The key that binds a namespace's knowledge base to one embedder, `{prefix:kb:namespace}:space`
 * (its own slot; the SCAN pattern of sessions never matches it). Value: see `spaceOf`.
 */
export function spaceKey(prefix: string, namespace: string): string {
  return `{${prefix}:kb:${namespace}}:space`;
}

/** An embedder's vector space as stored: `dimensions:id`. */
export function spaceOf(embedder: Embedder): string {
  return `${embedder.dimensions}:${embedder.id}`;
}

/** @throws MemConfigError when `bound` (a stored space, or null) is not `embedder`'s. */
export function assertSameSpace(bound: string | null, embedder: Embedder, namespace: string): void {
  if (bound === null || bound === spaceOf(embedder)) return;
  throw new MemConfigError(
    [
      {
        path: 'embedder',
        message: `namespace ${JSON.stringify(namespace)} holds vectors of ${describeSpace(bound)}, not ${JSON.stringify(embedder.id)} (${embedder.dimensions}); use that embedder, or another namespace or prefix`,
      },
    ],
    { source: SOURCE },
  );
}

/** The error of a write without an embedder to a namespace (or session) that holds vectors. */
export function vectorsNeedEmbedder(bound: string, namespace: string): MemConfigError {
  return new MemConfigError(
    [
      {
        path: 'embedder',
        message: `namespace ${JSON.stringify(namespace)} holds vectors of ${describeSpace(bound)}; pass that embedder, so that writes keep them in step`,
      },
    ],
    { source: SOURCE },
  );
}

function describeSpace(space: string): string {
  const colon = space.indexOf(':');
  return `embedder ${JSON.stringify(space.slice(colon + 1))} (${space.slice(0, colon)} dimensions)`;
}

/** `vector` at unit length as little-endian float32 bytes; empty for a zero vector. */
export function packVector(vector: Float32Array): Buffer {
  if (!normalizeVector(vector)) return Buffer.alloc(0);
  if (LITTLE_ENDIAN) return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  const packed = Buffer.allocUnsafe(vector.length * 4);
  for (let i = 0; i < vector.length; i++) packed.writeFloatLE(vector[i] as number, i * 4);
  return packed;
}

/**
 * The `depth` chunks of the sessions nearest to `query` by cosine similarity (the score), best
 * first, keeping only similarities `keepsSimilarity` accepts. Exact and on the client: reads
 * every vector of every session (one HGETALL each, with its epoch), then the chunks of the best
 * that `cache` does not hold.
 */
export async function nearestHits(
  client: Redis | Cluster,
  scope: readonly SessionScope[],
  query: Float32Array,
  depth: number,
  minSimilarity: number | undefined,
  cache?: ChunkCache,
): Promise<Ranked<ScoredHit>[]> {
  if (!normalizeVector(query)) return [];
  const bytes = query.length * 4;
  // Each session's vectors and its epoch (for the chunk cache), sent together.
  const read = await Promise.all(
    scope.map(async (session) => {
      const [hash, epoch] = await Promise.all([
        client.hgetallBuffer(session.keys[6] as string),
        client.hget(session.keys[5] as string, 'epoch'),
      ]);
      return { hash, session: { ...session, epoch: epoch ?? '' } };
    }),
  );
  const hashes = read.map((r) => r.hash);
  const sessions = read.map((r) => r.session);
  // One scratch vector per search: each packed vector is copied into it (a memcpy), not
  // allocated, whatever the alignment of the reply's bytes.
  const scratch = new Float32Array(query.length);
  const scratchBytes = new Uint8Array(scratch.buffer);
  const scored: Candidate[] = [];
  hashes.forEach((hash, session) => {
    for (const doc in hash) {
      const packed = hash[doc] as Buffer;
      // Another length is another embedder's vector (refused on write): never comparable.
      if (packed.length !== bytes) continue;
      const score = dotPacked(packed, query, scratch, scratchBytes);
      if (keepsSimilarity(score, minSimilarity)) scored.push({ session, doc, score });
    }
  });
  return readRanked(client, sessions, await ownCandidates(client, sessions, scored), depth, cache);
}

/** The dot product of a packed little-endian float32 vector with `query`. */
function dotPacked(
  packed: Buffer,
  query: Float32Array,
  scratch: Float32Array,
  scratchBytes: Uint8Array,
): number {
  let sum = 0;
  if (!LITTLE_ENDIAN) {
    for (let i = 0; i < query.length; i++) sum += packed.readFloatLE(i * 4) * (query[i] as number);
    return sum;
  }
  packed.copy(scratchBytes);
  for (let i = 0; i < query.length; i++) sum += (scratch[i] as number) * (query[i] as number);
  return sum;
}
