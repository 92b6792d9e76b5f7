import type { Ranked, ScoredHit } from '@mem/core/backend';
import type { Cluster, Redis } from 'ioredis';
import { type Candidate, readRanked, type SessionScope } from './redis-kb-read.ts';
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

const emptyPostings = (): Postings => ({ docs: [], tfs: [], lengths: [] });

/**
 * What one session holds for a query after the first read: its statistics, each term's open
 * block (parsed) and, for terms with sealed blocks, how many entries and blocks they hold.
 */
interface SessionHeads {
  keys: readonly string[];
  docs: number;
  length: number;
  open: Map<string, Postings>;
  sealed: Map<string, { entries: number; blocks: number }>;
}

/**
 * The `depth` best chunks of the sessions for the distinct query `terms` by BM25 (k1 1.2,
 * b 0.75), best first. Statistics (document count, average length, term rarity) are those of
 * the sessions together; at most the 8 rarest query terms are scored. Per session: 2 commands
 * (its statistics; the terms' open posting blocks and directories, which give each term's exact
 * document frequency), a third for the sealed blocks of the scored terms when they have some,
 * then one for the chunks of the top hits. Common terms left out of the scoring are never read
 * beyond their open block.
 */
export async function lexicalHits(
  client: Redis | Cluster,
  scope: readonly SessionScope[],
  terms: readonly string[],
  depth: number,
): Promise<Ranked<ScoredHit>[]> {
  const sessions = await Promise.all(scope.map(({ keys }) => readHeads(client, keys, terms)));
  const docs = sessions.reduce((sum, s) => sum + s.docs, 0);
  if (docs <= 0) return [];
  const averageLength = Math.max(sessions.reduce((sum, s) => sum + s.length, 0) / docs, 1e-9);
  // Term weights over the whole searched scope; keep the rarest MAX_QUERY_TERMS.
  const weighted = terms
    .map((term) => {
      const frequency = sessions.reduce(
        (sum, s) => sum + (s.open.get(term)?.docs.length ?? 0) + (s.sealed.get(term)?.entries ?? 0),
        0,
      );
      return { term, frequency, idf: bm25Idf(docs, frequency) };
    })
    .filter((t) => t.frequency > 0)
    .sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1))
    .slice(0, MAX_QUERY_TERMS);
  if (weighted.length === 0) return [];
  const scoredTerms = weighted.map((t) => t.term);
  const postings = await Promise.all(sessions.map((s) => readPostings(client, s, scoredTerms)));

  const scored: Candidate[] = [];
  postings.forEach((lists, index) => {
    const scores = new Map<number, number>();
    for (const { term, idf } of weighted) {
      const list = lists.get(term);
      if (list === undefined) continue;
      const { docs: ids, tfs, lengths } = list;
      for (let j = 0; j < ids.length; j++) {
        const tf = tfs[j] as number;
        const norm = K1 * (1 - B + (B * (lengths[j] as number)) / averageLength);
        const doc = ids[j] as number;
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * (K1 + 1) * tf) / (tf + norm));
      }
    }
    for (const [doc, score] of scores) scored.push({ session: index, doc: String(doc), score });
  });
  return readRanked(client, scope, await ownCandidates(client, scope, scored), depth);
}

/**
 * A session's statistics, and each term's open posting block and directory (see `KB_ADD`): one
 * round trip for every term, however long its postings.
 */
async function readHeads(
  client: Redis | Cluster,
  keys: readonly string[],
  terms: readonly string[],
): Promise<SessionHeads> {
  const [stats, heads] = await Promise.all([
    client.hmget(keys[5] as string, 'docs', 'len'),
    client.hmget(keys[3] as string, ...terms.flatMap((term) => [term, ` ${term}`])),
  ]);
  const open = new Map<string, Postings>();
  const sealed = new Map<string, { entries: number; blocks: number }>();
  terms.forEach((term, i) => {
    const list = emptyPostings();
    parseBlock(heads[2 * i], list);
    if (list.docs.length > 0) open.set(term, list);
    const directory = heads[2 * i + 1];
    if (typeof directory !== 'string') return;
    const [entries, ...firsts] = directory.split(' ').filter((n) => n !== '');
    if (firsts.length > 0) sealed.set(term, { entries: Number(entries), blocks: firsts.length });
  });
  return { keys, docs: Number(stats[0] ?? 0), length: Number(stats[1] ?? 0), open, sealed };
}

/**
 * The whole postings of `terms` in one session: their sealed blocks (one HMGET, none when they
 * have none), oldest first, then the open block read before. Blocks the directory listed then
 * are the ones read: a block sealed by an add in between is the open block already read.
 */
async function readPostings(
  client: Redis | Cluster,
  session: SessionHeads,
  terms: readonly string[],
): Promise<Map<string, Postings>> {
  const fields: string[] = [];
  const owner: string[] = [];
  for (const term of terms) {
    const blocks = session.sealed.get(term)?.blocks ?? 0;
    for (let k = 1; k <= blocks; k++) {
      fields.push(`${term} ${k}`);
      owner.push(term);
    }
  }
  const lists = new Map<string, Postings>(terms.map((term) => [term, emptyPostings()]));
  if (fields.length > 0) {
    const blocks = await client.hmget(session.keys[3] as string, ...fields);
    blocks.forEach((block, j) => {
      parseBlock(block, lists.get(owner[j] as string) as Postings);
    });
  }
  for (const term of terms) {
    const open = session.open.get(term);
    if (open === undefined) continue;
    const list = lists.get(term) as Postings;
    for (let j = 0; j < open.docs.length; j++) {
      list.docs.push(open.docs[j] as number);
      list.tfs.push(open.tfs[j] as number);
      list.lengths.push(open.lengths[j] as number);
    }
  }
  return lists;
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
