/*
 * Postings a knowledge base has read, kept in the client so that a later search of the same
 * session asks Redis only for the entries added since (`KB_LEXICAL`'s `base` arguments).
 *
 * Each entry is one term of one session, exact at one version of that session: its `epoch`
 * (see `redis-kb-chunk-cache.ts`), `seq` (bumped by every chunk added) and `docs` (its chunk
 * count). Doc numbers only grow within an epoch, so while no chunk was removed the entries added
 * since are those numbered above `seq`; and no chunk was removed exactly when `docs` grew by as
 * much as `seq` did (an add moves both by one per chunk, a removal or replacement moves `docs`
 * alone, whatever version of mem wrote it). The script checks that and sends either those new
 * entries or, when it does not hold, the term's whole postings again.
 */

/** One term's postings in one session (doc numbers ascending), exact at (epoch, seq, docs). */
export interface TermPostings {
  readonly epoch: string;
  readonly seq: number;
  readonly docs: number;
  /** Entries: the first `count` of `store`'s arrays. */
  readonly count: number;
  readonly store: EntryStore;
}

/** Arrays of entries that records share while each only appends past the others. */
interface EntryStore {
  doc: Int32Array;
  tf: Int32Array;
  length: Int32Array;
  /** How many entries any record has written: a record may append in place only at this end. */
  filled: number;
}

const EMPTY_STORE: EntryStore = {
  doc: new Int32Array(0),
  tf: new Int32Array(0),
  length: new Int32Array(0),
  filled: 0,
};

/** Bytes an entry takes in the cache (three 32-bit integers). */
const ENTRY_BYTES = 12;

/** The version a search read, as the script replies it. */
export interface SessionVersion {
  epoch: string;
  seq: number;
  docs: number;
}

/** The `base` argument for a term: what the client holds, or '' for nothing. */
export function baseOf(postings: TermPostings | undefined): string {
  return postings === undefined ? '' : `${postings.epoch}:${postings.seq}:${postings.docs}`;
}

/**
 * The term's postings at `version`: `bytes` parsed (`" doc:tf:length ..."`; only whole entries
 * count), appended to `base` when the script sent only what is new since it (`tail`).
 */
export function postingsAt(
  version: SessionVersion,
  bytes: Uint8Array | null | undefined,
  base?: TermPostings,
): TermPostings {
  let store = EMPTY_STORE;
  let count = 0;
  if (base !== undefined) {
    store = base.store;
    count = base.count;
  }
  if (bytes !== null && bytes !== undefined && bytes.length > 0) {
    // Each entry starts with a space; a little room is left for the next searches' tails.
    let spaces = 0;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 32) spaces += 1;
    const room = count + spaces;
    if (store.filled !== count || store.doc.length < room) {
      store = copyStore(
        store,
        count,
        base === undefined ? room : Math.max(room, count + 8 + (count >> 3)),
      );
    }
    count = parseInto(bytes, store, count);
    store.filled = count;
  }
  return { epoch: version.epoch, seq: version.seq, docs: version.docs, count, store };
}

function copyStore(from: EntryStore, count: number, capacity: number): EntryStore {
  const store: EntryStore = {
    doc: new Int32Array(capacity),
    tf: new Int32Array(capacity),
    length: new Int32Array(capacity),
    filled: count,
  };
  store.doc.set(from.doc.subarray(0, count));
  store.tf.set(from.tf.subarray(0, count));
  store.length.set(from.length.subarray(0, count));
  return store;
}

/** Parses entries into `store` from `at` on; returns the new count. */
function parseInto(bytes: Uint8Array, store: EntryStore, at: number): number {
  let count = at;
  // An entry is kept only when it is whole: doc, ':', tf, ':', length.
  let field = 0;
  let doc = 0;
  let tf = 0;
  let value = 0;
  let digits = false;
  for (let i = 0; i <= bytes.length; i++) {
    const c = i < bytes.length ? (bytes[i] as number) : 32;
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits = true;
    } else if (c === 58) {
      if (field === 0) doc = value;
      else tf = value;
      field += 1;
      value = 0;
      digits = false;
    } else if (c === 32) {
      if (digits && field === 2) {
        store.doc[count] = doc;
        store.tf[count] = tf;
        store.length[count] = value;
        count += 1;
      }
      field = 0;
      value = 0;
      digits = false;
    }
  }
  return count;
}

/** A least-recently-used map of `TermPostings`, bounded by their entries' bytes. */
export class PostingsCache {
  readonly #entries = new Map<string, TermPostings>();
  readonly #maxSize: number;
  #size = 0;

  /** `maxSize`: the bytes of entries it holds at most (0: nothing is kept). */
  constructor(maxSize: number) {
    this.#maxSize = maxSize;
  }

  /** The key of a term: the session's postings hash and the term. */
  static key(postingsKey: string, term: string): string {
    return `${postingsKey}\u0000${term}`;
  }

  get(key: string): TermPostings | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  /** Keeps `postings` (of a session with an epoch), evicting the least recently used. */
  set(key: string, postings: TermPostings): void {
    const size = sizeOf(postings);
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#entries.delete(key);
      this.#size -= sizeOf(old);
    }
    if (postings.epoch === '' || size > this.#maxSize) return;
    this.#entries.set(key, postings);
    this.#size += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#size <= this.#maxSize) break;
      this.#entries.delete(oldest);
      this.#size -= sizeOf(entry);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** The bytes of its arrays (their capacity), plus a little for the record. */
function sizeOf(postings: TermPostings): number {
  return postings.store.doc.length * ENTRY_BYTES + 64;
}
