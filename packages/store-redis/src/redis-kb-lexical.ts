import type { Ranked, ScoredHit } from '@mem/core/backend';
import type { Cluster, Redis } from 'ioredis';
import { type Candidate, readRanked, type SessionScope } from './redis-kb-read.ts';

/** BM25 term-frequency saturation. */
const K1 = 1.2;
/** BM25 length normalization. */
const B = 0.75;
/** Most query terms a search scores: the rarest ones (like the in-memory knowledge base). */
const MAX_QUERY_TERMS = 8;

/** A posting: doc number, term frequency, doc length. */
interface Posting {
  doc: string;
  tf: number;
  length: number;
}

/** What one session holds for a query: its statistics and the postings of the query terms. */
interface SessionPostings {
  docs: number;
  length: number;
  postings: Map<string, Posting[]>;
}

/**
 * The `depth` best chunks of the sessions for the distinct query `terms` by BM25 (k1 1.2,
 * b 0.75), best first. Statistics (document count, average length, term rarity) are those of
 * the sessions together; at most the 8 rarest query terms are scored. Per session: 2 commands
 * (its statistics and the postings of the terms), then one for the chunks of the top hits.
 */
export async function lexicalHits(
  client: Redis | Cluster,
  scope: readonly SessionScope[],
  terms: readonly string[],
  depth: number,
): Promise<Ranked<ScoredHit>[]> {
  const sessions = await Promise.all(scope.map(({ keys }) => readPostings(client, keys, terms)));
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

  const scored: Candidate[] = [];
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
  return readRanked(client, scope, scored, depth);
}

async function readPostings(
  client: Redis | Cluster,
  keys: readonly string[],
  terms: readonly string[],
): Promise<SessionPostings> {
  const [stats, lists] = await Promise.all([
    client.hmget(keys[5] as string, 'docs', 'len'),
    client.hmget(keys[3] as string, ...terms),
  ]);
  const postings = new Map<string, Posting[]>();
  terms.forEach((term, i) => {
    const list = lists[i];
    if (list === null || list === undefined) return;
    const parsed: Posting[] = [];
    for (const entry of list.split(' ')) {
      if (entry === '') continue;
      const [doc, tf, length] = entry.split(':');
      parsed.push({ doc: doc as string, tf: Number(tf), length: Number(length) });
    }
    postings.set(term, parsed);
  });
  return { docs: Number(stats[0] ?? 0), length: Number(stats[1] ?? 0), postings };
}

/** Lucene's BM25 idf: never negative, even for a term in every document. */
function bm25Idf(documents: number, frequency: number): number {
  return Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));
}
