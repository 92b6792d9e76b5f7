import type { KnowledgeChunk } from '@mem/core/backend';
import { knowledgeChunk } from '@mem/store-test-suite';

/** Common words (long postings) and rare ones (short postings) of the random chunks. */
const WORDS = ['harbour', 'ferry', 'budget', 'lisbon', 'invoice', 'deploy', 'quota', 'refund'];
const RARE = ['zebra', 'lantern', 'orchid', 'walrus', 'tundra', 'quartz', 'meadow', 'saffron'];

/** A seeded PRNG (core's mulberry32), so a failing sequence can be replayed by its seed. */
export { seededRandom as random } from '@mem/core/testing';

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
