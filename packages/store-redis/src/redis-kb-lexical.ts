import { kthHighest, type Ranked, type ScoredHit } from '@mem/core/backend';
import type { Cluster, Redis } from 'ioredis';
import type { ChunkCache } from './redis-kb-chunk-cache.ts';
import { runLexicalScript } from './redis-kb-lexical-script.ts';
import type { SessionMirrors } from './redis-kb-mirror.ts';
import {
  baseOf,
  PostingsCache,
  postingsAt,
  type SessionVersion,
  type TermPostings,
} from './redis-kb-postings-cache.ts';
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
type SyncReply = [
  ...StatsReply,
  seq: Buffer,
  picked: number[],
  tails: number[],
  postings: Buffer[],
];
type ReadReply = [docs: Buffer, seq: Buffer, epoch: Buffer, tails: number[], postings: Buffer[]];

/** What a search needs of its client: the connection and the caches it may use. */
export interface LexicalClient {
  client: Redis | Cluster;
  chunks?: ChunkCache | undefined;
  postings?: PostingsCache | undefined;
  mirrors?: SessionMirrors | undefined;
}

/**
 * The `depth` best chunks of the sessions for the distinct query `terms` by BM25 (k1 1.2,
 * b 0.75), best first. Statistics (document count, average length, term rarity) are those of
 * the sessions together; at most the 8 rarest query terms are scored. A session mirrored in
 * the client (`redis-kb-mirror.ts`) is caught up and searched there. Other single session: one script
 * (`KB_LEXICAL` in `sync` mode: its statistics, the terms' rarity and the picked terms'
 * postings, or only their entries added since the postings cache last saw them), then one
 * `HMGET` for the chunks of the top hits not in the chunk cache. Several: the statistics of
 * each (one script each, in parallel), then the postings of the terms picked over all of them,
 * then the chunks. Scores are computed here, in the same order and arithmetic as ever.
 */
export async function lexicalHits(
  { client, chunks, postings: cache, mirrors }: LexicalClient,
  scope: readonly SessionScope[],
  queryTerms: readonly string[],
  depth: number,
): Promise<Ranked<ScoredHit>[]> {
  // Sorted, so that the script's "equal rarity: earlier argument first" is "smaller term first".
  const terms = [...queryTerms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let stats: SessionStats[];
  let postings: TermPostings[][];
  let weighted: WeightedTerm[];
  const only = scope.length === 1 ? scope[0] : undefined;
  if (only !== undefined && mirrors !== undefined) {
    const mirrored = await mirrors.search(client, only, terms, depth);
    if (mirrored !== undefined) return mirrored;
  }
  if (only !== undefined) {
    const held = terms.map((term) => cache?.get(PostingsCache.key(only.keys[3] as string, term)));
    const args = [`sync:${MAX_QUERY_TERMS}`];
    terms.forEach((term, i) => {
      args.push(term, baseOf(held[i]));
    });
    const reply = (await runLexicalScript(client, only.keys, args)) as StatsReply | SyncReply;
    stats = [statsOf(reply)];
    weighted = weigh(terms, stats);
    let kept: TermPostings[] = [];
    let picked: string[] = [];
    if (reply.length === 8) {
      const [docs, , , epoch, seq, positions, tails, lists] = reply;
      const version = versionOf(epoch, seq, docs);
      picked = positions.map((i) => terms[i - 1] as string);
      kept = positions.map((i, j) =>
        keep(
          cache,
          only,
          picked[j] as string,
          version,
          lists[j],
          tails[j] === 1 ? held[i - 1] : undefined,
        ),
      );
    }
    postings = [kept];
    if (picked.join(' ') !== weighted.map((t) => t.term).join(' ')) {
      postings = [await readTerms(client, cache, only, weighted)];
    }
  } else {
    stats = await Promise.all(
      scope.map(async ({ keys }) =>
        statsOf((await runLexicalScript(client, keys, ['df', ...terms])) as StatsReply),
      ),
    );
    weighted = weigh(terms, stats);
    postings = await Promise.all(
      scope.map((session) => readTerms(client, cache, session, weighted)),
    );
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
  return readRanked(client, read, await ownCandidates(client, read, scored), depth, chunks);
}

interface WeightedTerm {
  term: string;
  idf: number;
}

function statsOf(reply: StatsReply | SyncReply): SessionStats {
  const [docs, length, dfs, epoch] = reply;
  return {
    docs: Number(String(docs)),
    length: Number(String(length)),
    dfs: dfs ?? [],
    epoch: epoch === undefined ? '' : String(epoch),
  };
}

function versionOf(epoch: Buffer, seq: Buffer, docs: Buffer): SessionVersion {
  return { epoch: String(epoch), seq: Number(String(seq)), docs: Number(String(docs)) };
}

/** A term's postings from the script's reply (whole, or new since `base`), kept in the cache. */
function keep(
  cache: PostingsCache | undefined,
  session: SessionScope,
  term: string,
  version: SessionVersion,
  bytes: Buffer | undefined,
  base: TermPostings | undefined,
): TermPostings {
  const postings = postingsAt(version, bytes, base);
  cache?.set(PostingsCache.key(session.keys[3] as string, term), postings);
  return postings;
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

/**
 * The postings of `weighted`'s terms in one session (`KB_LEXICAL` in `read` mode): whole, or
 * only what is new since the cache's.
 */
async function readTerms(
  client: Redis | Cluster,
  cache: PostingsCache | undefined,
  session: SessionScope,
  weighted: readonly WeightedTerm[],
): Promise<TermPostings[]> {
  if (weighted.length === 0) return [];
  const postingsKey = session.keys[3] as string;
  const held = weighted.map(({ term }) => cache?.get(PostingsCache.key(postingsKey, term)));
  const args = ['read'];
  weighted.forEach(({ term }, i) => {
    args.push(term, baseOf(held[i]));
  });
  const [docs, seq, epoch, tails, lists] = (await runLexicalScript(
    client,
    session.keys,
    args,
  )) as ReadReply;
  const version = versionOf(epoch, seq, docs);
  return weighted.map(({ term }, i) =>
    keep(cache, session, term, version, lists[i], tails[i] === 1 ? held[i] : undefined),
  );
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

/** Adds each entry of a term's `postings` to `board`; `norms` keeps each length's norm. */
function scoreTerm(
  postings: TermPostings | undefined,
  idf: number,
  averageLength: number,
  norms: number[],
  board: Board,
): void {
  if (postings === undefined) return;
  const weight = idf * (K1 + 1);
  const { doc, tf, length } = postings.store;
  for (let i = 0; i < postings.count; i++) {
    const size = length[i] as number;
    let norm = norms[size];
    if (norm === undefined) {
      norm = K1 * (1 - B + (B * size) / averageLength);
      norms[size] = norm;
    }
    const frequency = tf[i] as number;
    // (idf * (K1 + 1) * tf) / (tf + norm), evaluated in the same order as ever.
    board.add(doc[i] as number, (weight * frequency) / (frequency + norm));
  }
}

/** Lucene's BM25 idf: never negative, even for a term in every document. */
function bm25Idf(documents: number, frequency: number): number {
  return Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));
}
