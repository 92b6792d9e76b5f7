import { createInMemoryKnowledgeBase } from '@mem/core';
import {
  type BenchRun,
  benchRecallContext,
  printRecallContext,
  recallContextJson,
} from '@mem/store-bench';
import { createRedisKnowledgeBase } from '../src/index.ts';

/**
 * (f) `context()` with retrieval on a long conversation, the in-memory knowledge base and the
 * Redis one side by side in the same run, on the same conversation (the SQLite bench's section
 * (d) does the same for its file). The store is in memory for both, so the difference is the
 * knowledge base: Redis round trips, its BM25 over the postings it reads, and the writes of
 * continuous indexing and compaction during the replay.
 */
export async function runRecallContext(run: BenchRun, url: string): Promise<void> {
  const interactions = run.quick ? 2_000 : 10_000;
  const namespace = `recall${Date.now().toString(36)}`;
  const rows = await benchRecallContext(
    [
      ['in-memory (createInMemoryKnowledgeBase)', () => createInMemoryKnowledgeBase()],
      ['Redis (createRedisKnowledgeBase)', () => createRedisKnowledgeBase({ url, namespace })],
    ],
    interactions,
    run.quick ? 50 : 200,
  );
  printRecallContext('f', interactions, rows);
  run.out.recallContext = { interactions, rows: recallContextJson(rows) };
}
