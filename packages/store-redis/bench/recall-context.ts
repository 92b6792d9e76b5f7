import {
  type BenchSummary,
  fmtInt,
  fmtMs,
  fmtUs,
  printTable,
  summarizeSamples,
} from '@mem/bench-kit';
import { createInMemoryKnowledgeBase } from '@mem/core';
import type { KnowledgeBase } from '@mem/core/backend';
import { measureRecallContext, type RecallContextResult } from '@mem/core/testing';
import type { BenchRun } from '@mem/store-bench';
import { createRedisKnowledgeBase } from '../src/index.ts';

interface Row {
  knowledgeBase: string;
  result: RecallContextResult & { context: BenchSummary };
}

/**
 * (f) `context()` with retrieval on a long conversation (`measureRecallContext`: a summarizer +
 * knowledge base profile, `interactions` replayed, then `questions` timed calls), the in-memory
 * knowledge base and the Redis one side by side in the same run, on the same conversation (the
 * SQLite bench's section (d) does the same for its file). The store is in memory for both, so
 * the difference is the knowledge base: Redis round trips, its BM25 over the postings it reads,
 * and the writes of continuous indexing and compaction during the replay.
 */
export async function runRecallContext(run: BenchRun, url: string): Promise<void> {
  const interactions = run.quick ? 2_000 : 10_000;
  const questions = run.quick ? 50 : 200;
  const namespace = `recall${Date.now().toString(36)}`;
  const sides: Array<[string, () => KnowledgeBase]> = [
    ['in-memory (createInMemoryKnowledgeBase)', () => createInMemoryKnowledgeBase()],
    ['Redis (createRedisKnowledgeBase)', () => createRedisKnowledgeBase({ url, namespace })],
  ];
  const rows: Row[] = [];
  for (const [label, create] of sides) {
    const knowledgeBase = create();
    const result = await measureRecallContext({ knowledgeBase, interactions, questions });
    await knowledgeBase.close();
    rows.push({
      knowledgeBase: label,
      result: { ...result, context: summarizeSamples(result.contextNs) },
    });
  }
  printTable(
    `(f) context() with retrieval, ${fmtInt(interactions)} interactions (summarizer + knowledge base, search_mode always)`,
    rows.map(({ knowledgeBase, result }) => ({
      'knowledge base': knowledgeBase,
      'median context()': fmtUs(result.context.medianUs),
      'p90 context()': fmtUs(result.context.p90Us),
      'mean hits': result.meanHits.toFixed(2),
      'mean knowledge tokens': fmtInt(result.meanKnowledgeTokens),
      calls: result.context.runs,
      replay: fmtMs(result.replayMs),
    })),
  );
  run.out.recallContext = {
    interactions,
    rows: rows.map(({ knowledgeBase, result }) => ({
      knowledgeBase,
      medianUs: result.context.medianUs,
      p90Us: result.context.p90Us,
      meanHits: result.meanHits,
      meanKnowledgeTokens: result.meanKnowledgeTokens,
      replayMs: result.replayMs,
    })),
  };
}
