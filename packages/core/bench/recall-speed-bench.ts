import { fmtUs, printTable, summarizeSamples } from '@mem/bench-kit';
import { createInMemoryKnowledgeBase } from '../src/knowledge/in-memory-knowledge-base.ts';
import { measureRecallContext } from '../src/testing/measure-recall-context.ts';

/**
 * `context()` with retrieval (`--only=recall-speed`): the summarizer + knowledge-base profile
 * (`RECALL_SPEED_PROFILE`, 4,000-token budget) on generated sessions of 1,000 and 10,000
 * interactions, in-memory knowledge base; each timed call follows a new user message, so it
 * searches afresh and fills the knowledge share. The SQLite knowledge base's figure is in
 * @mem/store-sqlite's bench.
 */
export async function runRecallSpeedBench(quick: boolean): Promise<void> {
  const sizes = quick ? [1_000] : [1_000, 10_000];
  const questions = quick ? 100 : 300;
  await measureRecallContext({
    knowledgeBase: createInMemoryKnowledgeBase(),
    interactions: 200,
    questions: 50,
  }); // warm-up, discarded
  const rows = [];
  for (const interactions of sizes) {
    const result = await measureRecallContext({
      knowledgeBase: createInMemoryKnowledgeBase(),
      interactions,
      questions,
    });
    rows.push({ ...result, context: summarizeSamples(result.contextNs) });
  }
  printTable(
    'context() with retrieval after a new user message (4,000-token budget, in-memory knowledge base)',
    rows.map((r) => ({
      interactions: r.interactions,
      median: fmtUs(r.context.medianUs),
      p90: fmtUs(r.context.p90Us),
      'hits / context': r.meanHits.toFixed(1),
      'knowledge tokens': Math.round(r.meanKnowledgeTokens),
      calls: r.context.runs,
      'replay (s)': (r.replayMs / 1000).toFixed(1),
    })),
  );
  console.log(
    JSON.stringify({
      bench: '@mem/core recall-speed',
      node: process.version,
      quick,
      results: rows.map((r) => ({
        interactions: r.interactions,
        medianUs: Math.round(r.context.medianUs),
        p90Us: Math.round(r.context.p90Us),
        meanHits: Number(r.meanHits.toFixed(2)),
        meanKnowledgeTokens: Math.round(r.meanKnowledgeTokens),
      })),
    }),
  );
}
