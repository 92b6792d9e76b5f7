import { kthHighest, type Ranked, type ScoredHit } from '@mem/core/backend';
import type { Cluster, Redis } from 'ioredis';
import type { ChunkCache } from './redis-kb-chunk-cache.ts';
import { runLexicalScript } from './redis-kb-lexical-script.ts';
import { type Candidate, readRanked, type SessionScope } from './redis-kb-read.ts';
import { ownCandidates } from './redis-kb-users.ts';

/** BM25 term-frequency saturation. */
const K1 = 1.2;
/** BM25 length normalization. */
const B = 0.75;
/** Most query terms a search scores: the rarest ones (like the in-memory knowledge base). */
const MAX_QUERY_TERMS = 8;

/** A session's chunk count, total length and each query term's document frequency. */
interface SessionStats {
  docs: number;
  length: number;
  dfs: number[];
  epoch: string;
}

type StatsReply = [docs: Buffer, length: Buffer, dfs: number[], epoch: Buffer];
type PickReply = [...StatsReply, picked: number[], postings: Buffer[]];

/**
 * The `depth` best chunks of the sessions for the distinct query `terms` by BM25 (k1 1.2,
 * b 0.75), best first. Statistics (document count, average length, term rarity) are those of
 * the sessions together; at most the 8 rarest query terms are scored. One session: one script
 * (`KB_LEXICAL` in `pick` mode: its statistics, the terms' rarity and the picked terms'
 * postings), then one `HMGET` for the chunks of the top hits. Several: the statistics of each
 * (one script each, in parallel), then the postings of the terms picked over all of them, then
 * the chunks. Scores are computed here, in the same order and arithmetic as ever.
 */
export async function lexicalHits(
  client: Redis | Cluster,
  scope: readonly SessionScope[],
  queryTerms: readonly string[],
  depth: number,
  cache?: ChunkCache,
): Promise<Ranked<ScoredHit>[]> {
  // Sorted, so that the script's "equal rarity: earlier argument first" is "smaller term first".
  const terms = [...queryTerms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let stats: SessionStats[];
  let postings: Buffer[][];
  let weighted: WeightedTerm[];
  const only = scope.length === 1 ? scope[0] : undefined;
  if (only !== undefined) {
    const reply = (await runLexicalScript(client, only.keys, [
      `pick:${MAX_QUERY_TERMS}`,
      ...terms,
    ])) as StatsReply | PickReply;
    stats = [statsOf(reply)];
    weighted = weigh(terms, stats);
    const picked = reply.length === 6 ? reply[4].map((i) => terms[i - 1]) : [];
    postings = [reply.length === 6 ? reply[5] : []];
    if (picked.join(' ') !== weighted.map((t) => t.term).join(' ')) {
      postings = [await readTerms(client, only, weighted)];
    }
  } else {
    stats = await Promise.all(
      scope.map(async ({ keys }) =>
        statsOf((await runLexicalScript(client, keys, ['df', ...terms])) as StatsReply),
      ),
    );
    weighted = weigh(terms, stats);
    postings = await Promise.all(scope.map((session) => readTerms(client, session, weighted)));
  }
  if (weighted.length === 0) return [];
  const docs = stats.reduce((sum, s) => sum + s.docs, 0);
  const averageLength = Math.max(stats.reduce((sum, s) => sum + s.length, 0) / docs, 1e-9);

  // Per session, each doc's score summed in `weighted` order, as `(sum ?? 0) + part` always was.
  const norms: number[] = [];
  const scores: number[] = [];
  const sessionOf: number[] = [];
  const docOf: number[] = [];
  postings.forEach((lists, session) => {
    weighted.forEach(({ idf }, t) => {
      scoreTerm(lists[t], idf, averageLength, norms, board);
    });
    board.drain((doc, score) => {
      scores.push(score);
      sessionOf.push(session);
      docOf.push(doc);
    });
  });
  // Only candidates that can make the cut become objects (unless owners are still to filter).
  let cut = Number.NEGATIVE_INFINITY;
  if (scores.length > depth && depth > 0 && !scope.some((s) => s.owner?.mixed)) {
    cut = kthHighest(scores, depth);
  }
  const scored: Candidate[] = [];
  scores.forEach((score, i) => {
    if (score >= cut) {
      scored.push({ session: sessionOf[i] as number, doc: String(docOf[i]), score });
    }
  });
  const read = scope.map((session, i) => ({ ...session, epoch: stats[i]?.epoch ?? '' }));
  return readRanked(client, read, await ownCandidates(client, read, scored), depth, cache);
}

interface WeightedTerm {
  term: string;
  idf: number;
}

function statsOf(reply: StatsReply | PickReply): SessionStats {
  const [docs, length, dfs, epoch] = reply;
  return {
    docs: Number(String(docs)),
    length: Number(String(length)),
    dfs: dfs ?? [],
    epoch: epoch === undefined ? '' : String(epoch),
  };
}

/** The terms to score over the sessions together: the rarest `MAX_QUERY_TERMS`, rarest first. */
function weigh(terms: readonly string[], stats: readonly SessionStats[]): WeightedTerm[] {
  const docs = stats.reduce((sum, s) => sum + s.docs, 0);
  if (docs <= 0) return [];
  return terms
    .map((term, i) => {
      const frequency = stats.reduce((sum, s) => sum + Number(s.dfs[i] ?? 0), 0);
      return { term, frequency, idf: bm25Idf(docs, frequency) };
    })
    .filter((t) => t.frequency > 0)
    .sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1))
    .slice(0, MAX_QUERY_TERMS);
}

/** The whole postings of `weighted`'s terms in one session (`KB_LEXICAL` in `read` mode). */
async function readTerms(
  client: Redis | Cluster,
  session: SessionScope,
  weighted: readonly WeightedTerm[],
): Promise<Buffer[]> {
  if (weighted.length === 0) return [];
  const terms = weighted.map((t) => t.term);
  return (await runLexicalScript(client, session.keys, ['read', ...terms])) as Buffer[];
}

/**
 * Scores by doc number: the first part of a doc is its score, later ones are added to it. One
 * board serves every search: it is filled and drained within one synchronous pass.
 */
class Board {
  #scores = new Float64Array(1024);
  #seen = new Uint8Array(1024);
  #touched: number[] = [];

  add(doc: number, part: number): void {
    if (doc >= this.#scores.length) this.#grow(doc + 1);
    if (this.#seen[doc] === 1) {
      this.#scores[doc] = (this.#scores[doc] as number) + part;
    } else {
      this.#seen[doc] = 1;
      this.#scores[doc] = part;
      this.#touched.push(doc);
    }
  }

  /** Every scored doc in the order it was first scored, then a clean board. */
  drain(each: (doc: number, score: number) => void): void {
    for (const doc of this.#touched) {
      each(doc, this.#scores[doc] as number);
      this.#seen[doc] = 0;
    }
    this.#touched = [];
  }

  #grow(least: number): void {
    const size = Math.max(least, this.#scores.length * 2);
    const scores = new Float64Array(size);
    scores.set(this.#scores);
    this.#scores = scores;
    const seen = new Uint8Array(size);
    seen.set(this.#seen);
    this.#seen = seen;
  }
}

const board = new Board();

/**
 * Adds each whole entry of a term's `postings` (the bytes of `" doc:tf:length ..."`, or absent) to
 * `board`: one pass over the bytes, no substrings. `norms` keeps each length's norm.
 */
function scoreTerm(
  postings: Uint8Array | null | undefined,
  idf: number,
  averageLength: number,
  norms: number[],
  board: Board,
): void {
  if (postings === null || postings === undefined) return;
  const weight = idf * (K1 + 1);
  // An entry is kept only when it is whole: doc, ':', tf, ':', length.
  let field = 0;
  let doc = 0;
  let tf = 0;
  let value = 0;
  let digits = false;
  for (let i = 0; i <= postings.length; i++) {
    const c = i < postings.length ? (postings[i] as number) : 32;
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
        let norm = norms[value];
        if (norm === undefined) {
          norm = K1 * (1 - B + (B * value) / averageLength);
          norms[value] = norm;
        }
        // (idf * (K1 + 1) * tf) / (tf + norm), evaluated in the same order as ever.
        board.add(doc, (weight * tf) / (tf + norm));
      }
      field = 0;
      value = 0;
      digits = false;
    }
  }
}

/** Lucene's BM25 idf: never negative, even for a term in every document. */
function bm25Idf(documents: number, frequency: number): number {
  return Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));
}
