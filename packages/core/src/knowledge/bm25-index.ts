import { analyzeText } from './analyze-text.ts';
import { searchBm25 } from './bm25-search.ts';
import { termImpact } from './bm25-state.ts';
import type { KnowledgeChunk } from './knowledge-base-spec.ts';
import { searchableText } from './knowledge-base-spec.ts';
import {
  appendPosting,
  createPosting,
  type Posting,
  removeSlots,
  renumberPosting,
} from './postings.ts';
import { type IndexedChunk, SlotTable } from './slot-table.ts';

export { BM25_B, BM25_K1 } from './bm25-search.ts';
export type { IndexedChunk } from './slot-table.ts';

export interface ScoredChunk {
  readonly chunk: KnowledgeChunk;
  readonly score: number;
}

/**
 * An inverted index over one collection, ranked with Okapi BM25 (see `searchBm25`).
 *
 * Each chunk gets a numeric slot (`SlotTable`), handed out in increasing order so postings
 * (typed arrays of slots) stay sorted. Removal rewrites each affected posting once per batch;
 * when more than half the slots are free, slots are renumbered densely.
 */
export class Bm25Index {
  /** sessionId → chunk id → entry. */
  readonly sessions = new Map<string, Map<string, IndexedChunk>>();
  /** userId → the entries of chunks with that `metadata.userId`. */
  readonly users = new Map<string, Set<IndexedChunk>>();
  /** sessionId → summaryId → the entries of that summary (what compaction deletes). */
  #bySummary = new Map<string, Map<string, Set<IndexedChunk>>>();
  #sessionNumbers = new Map<string, number>();
  #nextSessionNumber = 1;
  #userNumbers = new Map<string, number>();
  #nextUserNumber = 1;
  #postings = new Map<string, Posting>();
  #table = new SlotTable(this.#postings);

  /** Number of chunks indexed. */
  get size(): number {
    return this.#table.size;
  }

  /**
   * Adds chunks (already checked and copied). A chunk with the session and id of a stored one
   * replaces it; within the batch the last one wins.
   */
  add(chunks: readonly KnowledgeChunk[]): void {
    const batch = new Map<string, KnowledgeChunk>();
    const replaced: IndexedChunk[] = [];
    for (const chunk of chunks) {
      // Session ids hold no control characters, so NUL separates the key parts unambiguously.
      batch.set(`${chunk.metadata.sessionId}\u0000${chunk.id}`, chunk);
      const old = this.sessions.get(chunk.metadata.sessionId)?.get(chunk.id);
      if (old !== undefined) replaced.push(old);
    }
    this.remove(replaced);
    for (const chunk of batch.values()) this.#insert(chunk);
  }

  /** Removes entries of this index, rewriting each affected posting once. */
  remove(entries: readonly IndexedChunk[]): void {
    const dead = new Set<number>();
    const terms = new Set<string>();
    let sparse = false;
    for (const entry of entries) {
      const { sessionId } = entry.chunk.metadata;
      const session = this.sessions.get(sessionId);
      if (session === undefined || session.get(entry.chunk.id) !== entry) continue;
      session.delete(entry.chunk.id);
      this.#unlinkSummary(entry);
      this.#unlinkUser(entry);
      if (session.size === 0) {
        this.sessions.delete(sessionId);
        this.#sessionNumbers.delete(sessionId);
      }
      dead.add(entry.slot);
      for (const term of entry.terms) terms.add(term);
      sparse = this.#table.free(entry);
    }
    const sorted = Int32Array.from(dead).sort();
    for (const term of terms) {
      const posting = this.#postings.get(term);
      if (posting === undefined) continue;
      removeSlots(posting, sorted);
      if (posting.size === 0) this.#postings.delete(term);
    }
    if (sparse) {
      const map = this.#table.renumber();
      for (const posting of this.#postings.values()) renumberPosting(posting, map);
    }
  }

  /**
   * A session's entries whose `metadata.summaryId` is one of `summaryIds` (found through an
   * index: no scan of the session's chunks).
   */
  summaryEntries(sessionId: string, summaryIds: readonly string[]): IndexedChunk[] {
    const bySummary = this.#bySummary.get(sessionId);
    if (bySummary === undefined) return [];
    const out: IndexedChunk[] = [];
    for (const id of new Set(summaryIds)) {
      const entries = bySummary.get(id);
      if (entries !== undefined) out.push(...entries);
    }
    return out;
  }

  /**
   * The `topK` best chunks for distinct query terms, best first; ties go to the newer chunk,
   * then to the smaller id (then session id). `session` restricts to one session's chunks,
   * `user` to chunks with that `metadata.userId` (never one without a user); with both, to
   * chunks matching both. Term statistics are the whole collection's either way.
   */
  search(terms: readonly string[], topK: number, session?: string, user?: string): ScoredChunk[] {
    const table = this.#table;
    if (table.size === 0 || terms.length === 0) return [];
    const number = session === undefined ? 0 : this.#sessionNumbers.get(session);
    const userNumber = user === undefined ? 0 : this.#userNumbers.get(user);
    if (number === undefined || userNumber === undefined) return [];
    // Every chunk is that session's (or user's): no need to check each document's.
    const only = this.sessions.size === 1 ? 0 : number;
    const onlyUser =
      user !== undefined && this.users.get(user)?.size === table.size ? 0 : userNumber;
    table.refreshNorms();
    return searchBm25(table, terms, topK, only, onlyUser).map((slot) => ({
      chunk: (table.entries[slot] as IndexedChunk).chunk,
      score: table.scores[slot] as number,
    }));
  }

  #insert(chunk: KnowledgeChunk): void {
    const { sessionId } = chunk.metadata;
    let session = this.sessions.get(sessionId);
    let number = this.#sessionNumbers.get(sessionId);
    if (session === undefined || number === undefined) {
      session = new Map();
      number = this.#nextSessionNumber++;
      this.sessions.set(sessionId, session);
      this.#sessionNumbers.set(sessionId, number);
    }
    const { userId } = chunk.metadata;
    let user = 0;
    if (userId !== undefined) {
      user = this.#userNumbers.get(userId) ?? this.#nextUserNumber++;
      this.#userNumbers.set(userId, user);
    }
    const analyzed = analyzeText(searchableText(chunk));
    const frequencies = new Map<string, number>();
    for (const term of analyzed) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    const entry: IndexedChunk = {
      chunk,
      slot: -1,
      session: number,
      user,
      terms: [...frequencies.keys()],
      length: analyzed.length,
    };
    this.#table.push(entry, chunk.metadata.createdAt);
    for (const [term, tf] of frequencies) {
      let posting = this.#postings.get(term);
      if (posting === undefined) {
        posting = createPosting();
        this.#postings.set(term, posting);
      }
      appendPosting(posting, entry.slot, tf, entry.length);
      if (posting.impactNorm >= 0) {
        const impact = termImpact(tf, entry.length, posting.impactNorm);
        if (impact > posting.maxImpact) posting.maxImpact = impact;
      }
    }
    session.set(chunk.id, entry);
    if (userId !== undefined) {
      const entries = this.users.get(userId);
      if (entries === undefined) this.users.set(userId, new Set([entry]));
      else entries.add(entry);
    }
    const { summaryId } = chunk.metadata;
    if (summaryId !== undefined) {
      let bySummary = this.#bySummary.get(sessionId);
      if (bySummary === undefined) {
        bySummary = new Map();
        this.#bySummary.set(sessionId, bySummary);
      }
      let entries = bySummary.get(summaryId);
      if (entries === undefined) {
        entries = new Set();
        bySummary.set(summaryId, entries);
      }
      entries.add(entry);
    }
  }

  #unlinkUser(entry: IndexedChunk): void {
    const { userId } = entry.chunk.metadata;
    if (userId === undefined) return;
    const entries = this.users.get(userId);
    if (entries === undefined) return;
    entries.delete(entry);
    if (entries.size > 0) return;
    this.users.delete(userId);
    this.#userNumbers.delete(userId);
  }

  #unlinkSummary(entry: IndexedChunk): void {
    const { sessionId, summaryId } = entry.chunk.metadata;
    if (summaryId === undefined) return;
    const bySummary = this.#bySummary.get(sessionId);
    const entries = bySummary?.get(summaryId);
    if (bySummary === undefined || entries === undefined) return;
    entries.delete(entry);
    if (entries.size > 0) return;
    bySummary.delete(summaryId);
    if (bySummary.size === 0) this.#bySummary.delete(sessionId);
  }
}
