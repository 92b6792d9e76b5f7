import type { Posting } from './postings.ts';

/* The parameters and shapes BM25 search shares with the index and the candidate pass. */

/** BM25 term-frequency saturation. */
export const BM25_K1 = 1.2;
/** BM25 length normalization. */
export const BM25_B = 0.75;
/** What a search reads from an index; scratch arrays are reused across searches. */
export interface Bm25SearchState {
  readonly postings: ReadonlyMap<string, Posting>;
  /** Number of indexed documents. */
  readonly size: number;
  /** Per slot: the document length (terms, repeats included). */
  readonly lengths: Float64Array;
  /** A document's norm `k1 · (1 - b + b · length / averageLength)` is `normBase + normPerLength · length`. */
  readonly normBase: number;
  readonly normPerLength: number;
  /** At most the smallest norm of any document (a bound, for pruning). */
  readonly minNorm: number;
  /** Per slot: the session number (1, 2, ...). */
  readonly sessionOf: Int32Array;
  /** Per slot: the user number (1, 2, ...), 0 for a chunk without a user. */
  readonly userOf: Int32Array;
  /** Scratch, per slot: accumulated score, valid where `stamps[slot]` is this search's. */
  readonly scores: Float64Array;
  readonly stamps: Uint32Array;
  readonly touched: Int32Array;
  /** A stamp no slot carries yet. */
  nextStamp(): number;
  /** Order of documents with equal scores (strict, total): newer first, then smaller id. */
  tieBreak(a: number, b: number): boolean;
}

export interface TermList {
  posting: Posting;
  /** idf · (k1 + 1). */
  weight: number;
  /**
   * Most this term can add to a score: `weight · maxTf / (maxTf + minNorm)` (for pruning). Which
   * terms are scored, and in what order, depends on `weight` alone (`pickTerms`).
   */
  bound: number;
  /** A bound at most `bound`, from the posting's own documents (`termImpactBound`): for pruning. */
  tight: number;
}

/** BM25's saturated term frequency for a document, given the norm's slope. */
export function termImpact(tf: number, length: number, normPerLength: number): number {
  return tf / (tf + BM25_K1 * (1 - BM25_B) + normPerLength * length);
}
