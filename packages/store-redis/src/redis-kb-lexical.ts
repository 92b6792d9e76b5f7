import type { Ranked, ScoredHit } from '@mem/core/backend';
import type { Cluster, Redis } from 'ioredis';
import { KB_LEXICAL } from './redis-kb-lexical-script.ts';
import { type Candidate, readRanked, type SessionScope } from './redis-kb-read.ts';
import { runKbScript } from './redis-kb-scripts.ts';
import { ownCandidates } from './redis-kb-users.ts';

/** BM25 term-frequency saturation. */
const K1 = 1.2;
/** BM25 length normalization. */
const B = 0.75;
/** Most query terms a search scores: the rarest ones (like the in-memory knowledge base). */
const MAX_QUERY_TERMS = 8;

/** Postings of one term, as parallel arrays: doc number, term frequency, doc length. */
interface Postings {
  docs: number[];
  tfs: number[];
  lengths: number[];
}

/** A session's chunk count, total length and each query term's document frequency. */
interface SessionStats {
  docs: number;
  length: number;
  dfs: number[];
}

type StatsReply = [docs: string, length: string, dfs: number[]];
type PickReply = [...StatsReply, picked: number[], postings: string[]];

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
): Promise<Ranked<ScoredHit>[]> {
  // Sorted, so that the script's "equal rarity: earlier argument first" is "smaller term first".
  const terms = [...queryTerms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let stats: SessionStats[];
  let postings: string[][];
  let weighted: WeightedTerm[];
  const only = scope.length === 1 ? scope[0] : undefined;
  if (only !== undefined) {
    const reply = (await runKbScript(client, KB_LEXICAL, only.keys, [
      `pick:${MAX_QUERY_TERMS}`,
      ...terms,
    ])) as StatsReply | PickReply;
    stats = [statsOf(reply)];
    weighted = weigh(terms, stats);
    const picked = reply.length === 5 ? reply[3].map((i) => terms[i - 1]) : [];
    postings = [reply.length === 5 ? reply[4] : []];
    if (picked.join(' ') !== weighted.map((t) => t.term).join(' ')) {
      postings = [await readTerms(client, only, weighted)];
    }
  } else {
    stats = await Promise.all(
      scope.map(async ({ keys }) =>
        statsOf((await runKbScript(client, KB_LEXICAL, keys, ['df', ...terms])) as StatsReply),
      ),
    );
    weighted = weigh(terms, stats);
    postings = await Promise.all(scope.map((session) => readTerms(client, session, weighted)));
  }
  if (weighted.length === 0) return [];
  const docs = stats.reduce((sum, s) => sum + s.docs, 0);
  const averageLength = Math.max(stats.reduce((sum, s) => sum + s.length, 0) / docs, 1e-9);

  const scored: Candidate[] = [];
  const list: Postings = { docs: [], tfs: [], lengths: [] };
  postings.forEach((lists, index) => {
    const scores = new Map<number, number>();
    weighted.forEach(({ idf }, t) => {
      list.docs.length = 0;
      list.tfs.length = 0;
      list.lengths.length = 0;
      parseBlock(lists[t], list);
      const { docs: ids, tfs, lengths } = list;
      for (let j = 0; j < ids.length; j++) {
        const tf = tfs[j] as number;
        const norm = K1 * (1 - B + (B * (lengths[j] as number)) / averageLength);
        const doc = ids[j] as number;
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * (K1 + 1) * tf) / (tf + norm));
      }
    });
    for (const [doc, score] of scores) scored.push({ session: index, doc: String(doc), score });
  });
  return readRanked(client, scope, await ownCandidates(client, scope, scored), depth);
}

interface WeightedTerm {
  term: string;
  idf: number;
}

function statsOf(reply: StatsReply | PickReply): SessionStats {
  return { docs: Number(reply[0]), length: Number(reply[1]), dfs: reply[2] ?? [] };
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
): Promise<string[]> {
  if (weighted.length === 0) return [];
  const terms = weighted.map((t) => t.term);
  return (await runKbScript(client, KB_LEXICAL, session.keys, ['read', ...terms])) as string[];
}

/**
 * Appends the entries of a block (`" doc:tf:length ..."`, or null when absent) to `into`: one
 * pass over the characters, no substrings.
 */
function parseBlock(block: string | null | undefined, into: Postings): void {
  if (typeof block !== 'string') return;
  const { docs, tfs, lengths } = into;
  // An entry is kept only when it is whole: doc, ':', tf, ':', length.
  let field = 0;
  let doc = 0;
  let tf = 0;
  let value = 0;
  let digits = false;
  for (let i = 0; i <= block.length; i++) {
    const c = i < block.length ? block.charCodeAt(i) : 32;
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
        docs.push(doc);
        tfs.push(tf);
        lengths.push(value);
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
