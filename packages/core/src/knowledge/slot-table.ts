import { bm25Norms } from './bm25-scope.ts';
import type { Bm25SearchState } from './bm25-state.ts';
import type { KnowledgeChunk } from './knowledge-base-spec.ts';
import type { Posting } from './postings.ts';

/** A stored chunk and where it sits in the index. */
export interface IndexedChunk {
  readonly chunk: KnowledgeChunk;
  slot: number;
  /** Session number of the chunk's session (1, 2, ...). */
  readonly session: number;
  /** User number of the chunk's user (1, 2, ...), 0 for a chunk without a user. */
  readonly user: number;
  /** Distinct terms of the chunk, to find its postings again on removal. */
  readonly terms: readonly string[];
  /** Number of terms, repeats included (the BM25 document length). */
  readonly length: number;
}

/**
 * Per-document data of an index in typed arrays indexed by slot, plus the scratch arrays a
 * search reuses. Slots are handed out in increasing order (so postings stay sorted) and never
 * reused until `renumber` packs the live ones.
 */
export class SlotTable implements Bm25SearchState {
  entries: Array<IndexedChunk | undefined> = [];
  sessionOf: Int32Array = new Int32Array(64);
  userOf: Int32Array = new Int32Array(64);
  createdAt: Float64Array = new Float64Array(64);
  lengths: Float64Array = new Float64Array(64);
  normBase = 0;
  normPerLength = 0;
  minNorm = 0;
  /** At most the shortest live document's length (removals never raise it: a safe bound). */
  #minLength = Number.POSITIVE_INFINITY;
  scores: Float64Array = new Float64Array(64);
  stamps: Uint32Array = new Uint32Array(64);
  touched: Int32Array = new Int32Array(64);
  postings: ReadonlyMap<string, Posting>;
  size = 0;
  #totalLength = 0;
  #normsValid = false;
  #stamp = 0;

  constructor(postings: ReadonlyMap<string, Posting>) {
    this.postings = postings;
  }

  /** Gives `entry` the next slot. */
  push(entry: IndexedChunk, createdAt: number): void {
    const slot = this.entries.length;
    if (slot >= this.sessionOf.length) this.#grow(slot + 1);
    entry.slot = slot;
    this.entries.push(entry);
    this.sessionOf[slot] = entry.session;
    this.userOf[slot] = entry.user;
    this.createdAt[slot] = createdAt;
    this.lengths[slot] = entry.length;
    if (entry.length < this.#minLength) this.#minLength = entry.length;
    this.#totalLength += entry.length;
    this.size++;
    this.#normsValid = false;
  }

  /** Frees a slot. True when more than half the slots are free: time to `renumber`. */
  free(entry: IndexedChunk): boolean {
    this.entries[entry.slot] = undefined;
    this.#totalLength -= entry.length;
    this.size--;
    this.#normsValid = false;
    return this.entries.length > 1024 && this.entries.length > 2 * this.size;
  }

  /** Gives the live entries slots 0..size-1 in the same order; returns old slot → new slot. */
  renumber(): Int32Array {
    const map = new Int32Array(this.entries.length).fill(-1);
    const live: IndexedChunk[] = [];
    this.entries.forEach((entry, slot) => {
      if (entry === undefined) return;
      map[slot] = live.length;
      this.sessionOf[live.length] = this.sessionOf[slot] as number;
      this.userOf[live.length] = this.userOf[slot] as number;
      this.createdAt[live.length] = this.createdAt[slot] as number;
      this.lengths[live.length] = this.lengths[slot] as number;
      entry.slot = live.length;
      live.push(entry);
    });
    this.entries = live;
    this.#normsValid = false;
    return map;
  }

  /**
   * Brings the BM25 norm parameters up to date with the current average length: O(1), so a
   * search after every add costs nothing extra (norms are computed per scored document).
   */
  refreshNorms(): void {
    if (this.#normsValid) return;
    const norms = bm25Norms({ documents: this.size, totalLength: this.#totalLength });
    this.normPerLength = norms.normPerLength;
    this.normBase = norms.normBase;
    const minLength = Number.isFinite(this.#minLength) ? this.#minLength : 0;
    this.minNorm = this.normBase + this.normPerLength * minLength;
    this.#normsValid = true;
  }

  nextStamp(): number {
    if (this.#stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.#stamp = 0;
    }
    return ++this.#stamp;
  }

  tieBreak = (a: number, b: number): boolean => {
    const ta = this.createdAt[a] as number;
    const tb = this.createdAt[b] as number;
    if (ta !== tb) return ta > tb;
    const ca = (this.entries[a] as IndexedChunk).chunk;
    const cb = (this.entries[b] as IndexedChunk).chunk;
    if (ca.id !== cb.id) return ca.id < cb.id;
    return ca.metadata.sessionId < cb.metadata.sessionId;
  };

  #grow(slots: number): void {
    const capacity = Math.max(slots, this.sessionOf.length * 2);
    const sessionOf = new Int32Array(capacity);
    sessionOf.set(this.sessionOf);
    this.sessionOf = sessionOf;
    const userOf = new Int32Array(capacity);
    userOf.set(this.userOf);
    this.userOf = userOf;
    const createdAt = new Float64Array(capacity);
    createdAt.set(this.createdAt);
    this.createdAt = createdAt;
    const stamps = new Uint32Array(capacity);
    stamps.set(this.stamps);
    this.stamps = stamps;
    const lengths = new Float64Array(capacity);
    lengths.set(this.lengths);
    this.lengths = lengths;
    this.scores = new Float64Array(capacity);
    this.touched = new Int32Array(capacity);
    this.#normsValid = false;
  }
}
