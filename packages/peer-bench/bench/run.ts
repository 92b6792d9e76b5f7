import { readFileSync } from 'node:fs';
import { fmtInt, fmtMs, fmtUs, printTable } from '@mem/bench-kit';
import {
  contenders,
  LANGGRAPH_TURN_BUDGET_MS,
  MASTRA_TOKEN_LIMIT,
  mastraCountName,
  mastraLastMessages,
} from '../src/contenders.ts';
import { runSize, type SystemResult } from '../src/run-peers.ts';
import { MASTRA_TOKEN_LINE_LAST_MESSAGES } from '../src/systems/mastra-system.ts';
import { BUDGET_TOKENS, createWorkload } from '../src/workload.ts';

/**
 * `pnpm bench` for @mem/peer-bench: one warm agent turn on a SQLite file — store one interaction
 * (user, assistant tool call, tool result, assistant answer) and build the next prompt of at most
 * 4,000 tokens — in mem, Mastra memory (libSQL; by a `lastMessages` count and by its
 * `messageHistory.maxTokens` token budget) and LangGraph (SqliteSaver + trimMessages), each
 * on its own fresh file pre-filled with 1,000 / 10,000 / 100,000 interactions; measured turns in
 * interleaved rounds. `--quick`: 1,000 interactions, 3 short rounds.
 */
const quick = process.argv.includes('--quick');
const sizes = quick ? [1_000] : [1_000, 10_000, 100_000];
const options = quick
  ? { rounds: 3, perRound: 5, warmUp: 3 }
  : { rounds: 10, perRound: 20, warmUp: 20 };
const workload = createWorkload();
const lastMessages = mastraLastMessages(workload, 10_000);
const systems = contenders(workload, lastMessages, {
  turnBudgetMs: quick ? 15_000 : LANGGRAPH_TURN_BUDGET_MS,
});

const version = (name: string): string => {
  const url = new URL(`../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
};
const versions = Object.fromEntries(
  [
    '@mastra/core',
    '@mastra/memory',
    '@mastra/libsql',
    '@langchain/langgraph',
    '@langchain/langgraph-checkpoint-sqlite',
    '@langchain/core',
    'better-sqlite3',
  ].map((n) => [n, version(n)]),
);
console.log(
  `[peer-bench] Node ${process.version}; Mastra lastMessages = ${lastMessages}; ` +
    `${MASTRA_TOKEN_LIMIT}: messageHistory.maxTokens ${BUDGET_TOKENS}, lastMessages ${MASTRA_TOKEN_LINE_LAST_MESSAGES}`,
);

const results: SystemResult[] = [];
for (const interactions of sizes) {
  const log = (line: string) => console.log(`[peer-bench] ${line}`);
  results.push(...(await runSize(workload, interactions, systems, results, { ...options, log })));
}

const memAt = (n: number) => results.find((r) => r.name === 'mem' && r.interactions === n);
const ratio = (r: SystemResult) => r.turn.medianUs / (memAt(r.interactions)?.turn.medianUs ?? NaN);
printTable(
  `Agent turn on SQLite: append one interaction + build a ${fmtInt(BUDGET_TOKENS)}-token prompt (interleaved rounds)`,
  results.map((r) => ({
    interactions: fmtInt(r.interactions),
    system: r.name,
    turns: `${r.turn.runs}${r.stoppedEarly ? ' (time bound)' : ''}`,
    'median / turn': fmtUs(r.turn.medianUs),
    'p90 / turn': fmtUs(r.turn.p90Us),
    '/ mem': r.name === 'mem' ? '1' : `${ratio(r).toFixed(1)}×`,
    'prompt msgs': r.promptMessages,
    'median prompt tokens': r.medianPromptTokens,
    'max prompt tokens': r.maxPromptTokens,
    'missed new': r.missedNewest,
    'over 4,000': r.overBudget,
    'bytes on disk': fmtInt(r.bytes),
    'bytes / interaction': fmtInt(r.bytes / r.interactions),
    'disk growth / turn': fmtInt((r.bytesAfterTurns - r.bytes) / Math.max(1, r.turnsStored)),
    'pre-fill': fmtMs(r.prefillMs),
  })),
);
const skipped = sizes.filter(
  (n) => !results.some((r) => r.name === 'LangGraph' && r.interactions === n),
);
if (skipped.length > 0) {
  console.log(`LangGraph not run at ${skipped.map(fmtInt).join(', ')} interactions (time bound).`);
}

const goal = (name: string, n: number, target: number) => {
  const mastra = results.find((r) => r.name === name && r.interactions === n);
  return mastra === undefined
    ? undefined
    : { ratio: ratio(mastra), target, met: ratio(mastra) >= target };
};
const countLine = mastraCountName(lastMessages);
const goals = {
  mastraOverMem1k: goal(countLine, 1_000, 5),
  mastraOverMem100k: goal(countLine, 100_000, 50),
  mastraTokenLimitOverMem1k: goal(MASTRA_TOKEN_LIMIT, 1_000, 5),
  mastraTokenLimitOverMem100k: goal(MASTRA_TOKEN_LIMIT, 100_000, 50),
};
printTable(
  'Goals (issue 14)',
  Object.entries(goals).map(([measure, g]) => ({
    measure,
    value: g === undefined ? 'not run' : `${g.ratio.toFixed(1)}×`,
    target: g === undefined ? '' : `>= ${g.target}×`,
    met: g === undefined ? '' : g.met ? 'yes' : 'NO',
  })),
);

console.log(
  JSON.stringify({
    bench: '@mem/peer-bench',
    node: process.version,
    quick,
    versions,
    budgetTokens: BUDGET_TOKENS,
    mastraLastMessages: lastMessages,
    mastraTokenLimit: {
      maxTokens: BUDGET_TOKENS,
      lastMessages: MASTRA_TOKEN_LINE_LAST_MESSAGES,
      tokenizer: 'tokenx',
    },
    results: results.map((r) => ({
      system: r.name,
      interactions: r.interactions,
      runs: r.turn.runs,
      medianUs: r.turn.medianUs,
      p90Us: r.turn.p90Us,
      ratioToMem: ratio(r),
      bytes: r.bytes,
      bytesPerInteraction: r.bytes / r.interactions,
      bytesAddedPerTurn: (r.bytesAfterTurns - r.bytes) / Math.max(1, r.turnsStored),
      prefillMs: r.prefillMs,
      promptMessages: r.promptMessages,
      medianPromptTokens: r.medianPromptTokens,
      maxPromptTokens: r.maxPromptTokens,
      badPrompts: r.badPrompts,
      missedNewest: r.missedNewest,
      overBudget: r.overBudget,
      stoppedEarly: r.stoppedEarly,
    })),
    langGraphSkipped: skipped,
    goals,
  }),
);
