import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTokenCounter } from '../../src/tokens/token-counter.ts';
import { benchDataset } from './bench-dataset.ts';
import { loadConversationQuestions } from './load-conversation-questions.ts';
import { loadDialogue } from './load-dialogue.ts';
import { loadLocomo } from './load-locomo.ts';
import type { RecallDataset } from './recall-dataset.ts';
import { reportDataset } from './report-dataset.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const DIALOGUE = here('./data/dialogue.json');
const SUPPORT_DESK_QUESTIONS = here('./data/support-desk.questions.json');

export interface RecallBenchOptions {
  quick: boolean;
  /** LoCoMo's directory (`--recall-data`, `MEM_RECALL_DATA`); reported as external data. */
  externalDir?: string | undefined;
}

/**
 * The recall part of `pnpm bench`: when a conversation comes back to something said long ago,
 * is it in the prompt? mem (the seeds' combined profile with a knowledge base), the newest turns
 * (recency) and plain BM25 over the turns, each within the same token budget. Prints tables and
 * one JSON line `{"bench":"@mem/core recall", ...}`.
 */
export async function runRecallBench(options: RecallBenchOptions): Promise<void> {
  const budgets = options.quick ? [4_000] : [2_000, 4_000, 8_000];
  const counter = createTokenCounter();
  const datasets: RecallDataset[] = [];
  if (existsSync(DIALOGUE)) datasets.push(await loadDialogue(DIALOGUE, 'dialogue'));
  else console.log(`\nRecall: ${DIALOGUE} is not there yet; the dialogue is skipped.`);
  datasets.push(await loadConversationQuestions(SUPPORT_DESK_QUESTIONS, 'support desk'));
  if (options.externalDir !== undefined) datasets.push(await loadLocomo(options.externalDir));
  const out: Record<string, unknown>[] = [];
  for (const dataset of datasets)
    out.push(reportDataset(await benchDataset(dataset, budgets, counter)));
  console.log(
    JSON.stringify({
      bench: '@mem/core recall',
      node: process.version,
      quick: options.quick,
      budgets,
      datasets: out,
    }),
  );
}
