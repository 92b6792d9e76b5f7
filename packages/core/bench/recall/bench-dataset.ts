import { analyzeText } from '../../src/knowledge/analyze-text.ts';
import type { TokenCounter } from '../../src/tokens/token-counter.ts';
import { Baselines } from './baselines.ts';
import { contextText, turnTexts } from './context-text.ts';
import { runMem, runMemAcrossSessions } from './mem-run.ts';
import { checkEvidence, countQuestions, type RecallDataset } from './recall-dataset.ts';
import { orderTypes, Shares } from './shares.ts';

/** Retrieval recall is measured among the best k hits, for each k. */
export const KS = [5, 10, 25] as const;
const METHODS = ['mem', 'mem, new session', 'recency', 'BM25'] as const;
type Method = (typeof METHODS)[number];

interface Cell {
  inContext: Shares;
  tokens: number[];
}

/** One dataset at every budget: answer turns in context per method, retrieval recall@k. */
export async function benchDataset(
  dataset: RecallDataset,
  budgets: readonly number[],
  counter: TokenCounter,
) {
  checkEvidence(dataset);
  const t0 = performance.now();
  const cells = new Map<string, Cell>();
  const cell = (method: Method, budget: number): Cell => {
    const key = `${method}@${budget}`;
    const c = cells.get(key) ?? { inContext: new Shares(), tokens: [] };
    cells.set(key, c);
    return c;
  };
  const recall = new Map<string, Shares[]>();
  const recallAt = (key: string) => {
    const r = recall.get(key) ?? KS.map(() => new Shares());
    recall.set(key, r);
    return r;
  };
  let compactions = 0;
  let compactionErrors = 0;
  let replayMs = 0;
  let knowledgeChunks = 0;
  let userSessions = 0;
  let userFacts = 0;
  const fromFacts = new Shares();
  for (const conversation of dataset.conversations) {
    const texts = turnTexts(conversation.messages);
    const baselines = new Baselines(conversation.messages, counter);
    for (const q of conversation.questions) {
      const top = baselines.bm25Top(q.question, Math.max(...KS));
      recallAt('BM25').forEach((shares, i) => {
        const found = new Set(top.slice(0, KS[i]));
        for (const id of q.evidence) shares.add(q.type, found.has(id));
      });
    }
    for (const budget of budgets) {
      const mem = await runMem(conversation, budget, KS, counter);
      const across = await runMemAcrossSessions(conversation, budget, counter);
      if (budget === budgets.at(-1)) {
        userSessions += across.sessions;
        userFacts += across.facts;
        for (const q of conversation.questions) {
          fromFacts.add(q.type, answerInFacts(q.answer, across.answers.get(q.id)!.facts));
        }
      }
      compactions += mem.compactions;
      compactionErrors += mem.compactionErrors;
      replayMs += mem.replayMs;
      if (budget === budgets.at(-1)) knowledgeChunks += mem.knowledgeChunks;
      for (const q of conversation.questions) {
        const answer = mem.answers.get(q.id)!;
        const recency = baselines.recency(q.question, budget);
        const bm25 = baselines.bm25(q.question, budget);
        const contexts: Record<Method, { text: string; tokenCount: number }> = {
          mem: answer,
          'mem, new session': across.answers.get(q.id)!,
          recency: { text: contextText(recency.messages), tokenCount: recency.tokenCount },
          BM25: { text: contextText(bm25.messages), tokenCount: bm25.tokenCount },
        };
        for (const method of METHODS) {
          const c = cell(method, budget);
          c.tokens.push(contexts[method].tokenCount);
          for (const id of q.evidence) {
            c.inContext.add(q.type, contexts[method].text.includes(texts.get(id)!));
          }
        }
        recallAt(`mem@${budget}`).forEach((shares, i) => {
          for (const id of q.evidence) shares.add(q.type, answer.retrieved[i]!.has(id));
        });
      }
    }
  }
  const types = orderTypes(dataset.conversations.flatMap((c) => c.questions.map((q) => q.type)));
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const results = budgets.flatMap((budget) =>
    METHODS.map((method) => {
      const c = cell(method, budget);
      return { budget, method, inContext: c.inContext, meanTokens: mean(c.tokens) };
    }),
  );
  const retrieval = [
    ...budgets.map((budget) => ({ method: 'mem', budget, at: recallAt(`mem@${budget}`) })),
    { method: 'BM25', budget: undefined, at: recallAt('BM25') },
  ];
  return {
    dataset,
    ...countQuestions(dataset),
    types,
    results,
    retrieval,
    compactions,
    compactionErrors,
    knowledgeChunks,
    replayMs,
    userSessions,
    userFacts,
    fromFacts,
    seconds: (performance.now() - t0) / 1000,
  };
}

export type DatasetResult = Awaited<ReturnType<typeof benchDataset>>;

/**
 * True when every content word of the expected answer (3+ letters, stopwords aside) is in the
 * user-facts block: the question could be answered from the facts alone.
 */
export function answerInFacts(answer: string, facts: string): boolean {
  if (facts.length === 0) return false;
  const words = analyzeText(answer);
  if (words.length === 0) return false;
  const held = new Set(analyzeText(facts));
  return words.every((w) => held.has(w));
}
