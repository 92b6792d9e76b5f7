import {
  type BenchSummary,
  fmtInt,
  fmtMs,
  fmtUs,
  printTable,
  summarizeSamples,
} from '@mem/bench-kit';
import type { KnowledgeBase } from '@mem/core/backend';
import { measureRecallContext, type RecallContextResult } from '@mem/core/testing';

export interface RecallContextRow {
  knowledgeBase: string;
  result: RecallContextResult & { context: BenchSummary };
}

/**
 * `context()` with retrieval (`measureRecallContext`: a summarizer + knowledge base profile,
 * `interactions` replayed, then `questions` timed calls) on each knowledge base in turn, the same
 * conversation for all, in one run.
 */
export async function benchRecallContext(
  sides: ReadonlyArray<[label: string, create: () => KnowledgeBase]>,
  interactions: number,
  questions: number,
): Promise<RecallContextRow[]> {
  const rows: RecallContextRow[] = [];
  for (const [label, create] of sides) {
    const knowledgeBase = create();
    const result = await measureRecallContext({ knowledgeBase, interactions, questions });
    await knowledgeBase.close();
    rows.push({
      knowledgeBase: label,
      result: { ...result, context: summarizeSamples(result.contextNs) },
    });
  }
  return rows;
}

/** The table of `benchRecallContext`'s rows, titled `(section) context() with retrieval, ...`. */
export function printRecallContext(
  section: string,
  interactions: number,
  rows: readonly RecallContextRow[],
): void {
  printTable(
    `(${section}) context() with retrieval, ${fmtInt(interactions)} interactions (summarizer + knowledge base, search_mode always)`,
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
}

/** The JSON of the rows. */
export function recallContextJson(rows: readonly RecallContextRow[]) {
  return rows.map(({ knowledgeBase, result }) => ({
    knowledgeBase,
    medianUs: result.context.medianUs,
    p90Us: result.context.p90Us,
    meanHits: result.meanHits,
    meanKnowledgeTokens: result.meanKnowledgeTokens,
    replayMs: result.replayMs,
  }));
}
