import type { KnowledgeChunk } from '@mem/core/backend';

/*
 * Chunks a knowledge base has read, kept in the client so that a search whose hits were read
 * before reads only the others. A chunk's doc number is never given to another chunk while its
 * session lives (a replacement takes a new number), so (session, doc number) names one content
 * for as long as the session's stats hash does; a session deleted whole and written again may
 * reuse the numbers, so each entry is also keyed by the session's `epoch`: a random token the add
 * script stores when the stats hash has none (a session deleted whole loses it with its keys).
 * A session without one (written only by an earlier version) is never cached.
 */

/** A least-recently-used map of parsed chunks, bounded by the length of their JSON. */
export class ChunkCache {
  readonly #entries = new Map<string, { chunk: KnowledgeChunk; size: number }>();
  readonly #maxSize: number;
  #size = 0;

  /** `maxSize`: the JSON characters it holds at most (0: nothing is kept). */
  constructor(maxSize: number) {
    this.#maxSize = maxSize;
  }

  /** The key of a chunk: the session's chunks hash, its epoch and the chunk's doc number. */
  static key(chunksKey: string, epoch: string, doc: string): string {
    return `${chunksKey}\u0000${epoch}\u0000${doc}`;
  }

  /** A copy of the cached chunk, or undefined. */
  get(key: string): KnowledgeChunk | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return copyChunk(entry.chunk);
  }

  /** Keeps `chunk` (read from `size` characters of JSON), evicting the least recently used. */
  set(key: string, chunk: KnowledgeChunk, size: number): void {
    if (size > this.#maxSize) return;
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#entries.delete(key);
      this.#size -= old.size;
    }
    this.#entries.set(key, { chunk: copyChunk(chunk), size });
    this.#size += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#size <= this.#maxSize) break;
      this.#entries.delete(oldest);
      this.#size -= entry.size;
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** A copy that shares only strings, so a caller that changes a hit changes no cached chunk. */
export function copyChunk(chunk: KnowledgeChunk): KnowledgeChunk {
  return {
    ...chunk,
    metadata: { ...chunk.metadata, messageIds: chunk.metadata.messageIds.slice() },
  };
}
