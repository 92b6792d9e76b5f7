import type { KnowledgeChunk } from '@mem/core/backend';
import { knowledgeChunk } from '@mem/store-test-suite';

/** Common words (long postings) and rare ones (short postings) of the random chunks. */
const WORDS = ['harbour', 'ferry', 'budget', 'lisbon', 'invoice', 'deploy', 'quota', 'refund'];
const RARE = ['zebra', 'lantern', 'orchid', 'walrus', 'tundra', 'quartz', 'meadow', 'saffron'];

export /** A small deterministic PRNG (mulberry32), so a failing sequence can be replayed by its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export /** Chunk `id` of session s1 with words drawn by `next`: common ones, now and then a rare one. */
function chunkOf(id: string, next: () => number, summaryId?: string): KnowledgeChunk {
  const words: string[] = [];
  const count = 3 + Math.floor(next() * 10);
  for (let k = 0; k < count; k++) words.push(WORDS[Math.floor(next() * WORDS.length)]!);
  if (next() < 0.3) words.push(RARE[Math.floor(next() * RARE.length)]!);
  return knowledgeChunk(id, words.join(' '), {
    sessionId: 's1',
    kind: summaryId === undefined ? 'archive' : 'summary',
    createdAt: Math.floor(next() * 5),
    messageIds: summaryId === undefined ? [`m-${id}`] : [],
    ...(summaryId === undefined ? {} : { summaryId }),
  });
}
