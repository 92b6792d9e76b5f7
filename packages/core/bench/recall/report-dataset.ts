import { fmtInt, printTable } from '@mem/bench-kit';
import { type DatasetResult, KS } from './bench-dataset.ts';
import { fmtShare, round } from './shares.ts';

/** Prints a dataset's tables and a one-line account; returns its part of the JSON line. */
export function reportDataset(r: DatasetResult): Record<string, unknown> {
  const label = r.dataset.name;
  printTable(
    `Recall, ${label}: answer turns in context (${r.questions} questions, ${r.pairs} question-turn pairs)`,
    r.results.map((row) => ({
      budget: fmtInt(row.budget),
      method: row.method,
      all: fmtShare(row.inContext.share()),
      ...Object.fromEntries(r.types.map((t) => [t, fmtShare(row.inContext.share(t))])),
      'mean tokens used': fmtInt(row.meanTokens),
    })),
  );
  printTable(
    `Recall, ${label}: retrieval recall (share of evidence turns among the top k)`,
    r.retrieval.map((row) => ({
      method: row.method === 'mem' ? 'mem knowledge base' : 'BM25 over turns',
      budget: row.budget === undefined ? '-' : fmtInt(row.budget),
      ...Object.fromEntries(KS.map((k, i) => [`@${k}`, fmtShare(row.at[i]!.share())])),
    })),
  );
  printTable(
    `Recall, ${label}: questions answerable from the user-facts block alone (new session, last budget; ${fmtInt(r.userFacts)} facts from ${fmtInt(r.userSessions)} sessions)`,
    ['all', ...r.types].map((type) => ({ type, share: fmtShare(r.fromFacts.share(type)) })),
  );
  const skipped = Object.entries(r.dataset.skipped).map(([why, n]) => `${n} ${why}`);
  console.log(
    `${label}: ${r.dataset.conversations.length} conversation(s), ${r.compactions} compactions` +
      ` (${r.compactionErrors} failed), ${r.knowledgeChunks} knowledge chunks at the last budget,` +
      ` replay ${(r.replayMs / 1000).toFixed(1)} s, total ${r.seconds.toFixed(1)} s` +
      (skipped.length > 0 ? `; skipped: ${skipped.join(', ')}` : ''),
  );
  return {
    name: label,
    external: r.dataset.external,
    conversations: r.dataset.conversations.length,
    questions: r.questions,
    pairs: r.pairs,
    skipped: r.dataset.skipped,
    inContext: r.results.map((row) => ({
      budget: row.budget,
      method: row.method,
      ...row.inContext.toJSON(),
      meanTokens: round(row.meanTokens, 1),
    })),
    retrieval: r.retrieval.map((row) => ({
      method: row.method,
      ...(row.budget === undefined ? {} : { budget: row.budget }),
      ...Object.fromEntries(KS.map((k, i) => [`at${k}`, round(row.at[i]!.share())])),
    })),
    userSessions: r.userSessions,
    userFacts: r.userFacts,
    answerableFromFacts: r.fromFacts.toJSON(),
    compactions: r.compactions,
    compactionErrors: r.compactionErrors,
    replayMs: Math.round(r.replayMs),
    seconds: round(r.seconds, 1),
  };
}
