import type { Contender, SystemResult } from './run-peers.ts';
import { openLangGraphSystem } from './systems/langgraph-system.ts';
import {
  mastraLastMessages,
  openMastraSystem,
  openMastraTokenLimitSystem,
} from './systems/mastra-system.ts';
import { openMemSystem } from './systems/mem-system.ts';
import type { Workload } from './workload.ts';

/** LangGraph runs a size only if its median turn at the size before, scaled up, fits this. */
export const LANGGRAPH_PROJECTED_TURN_LIMIT_MS = 60_000;
/** LangGraph's measured turns stop at one size once they add up to this. */
export const LANGGRAPH_TURN_BUDGET_MS = 120_000;
/** Beyond this LangGraph is not pre-filled at all (one checkpoint of every message). */
export const LANGGRAPH_MAX_INTERACTIONS = 10_000;

/** Names of the two Mastra lines (the count-capped one carries its `lastMessages`). */
export const mastraCountName = (lastMessages: number) => `Mastra lastMessages ${lastMessages}`;
export const MASTRA_TOKEN_LIMIT = 'Mastra + token limit';

/**
 * The systems: mem, Mastra twice (a `lastMessages` count that fits the budget; its
 * `messageHistory.maxTokens` token budget), LangGraph. LangGraph's turn re-reads and re-writes the whole thread, so its cost grows
 * with the history: it runs at a size only while its median turn at the previous size, scaled
 * by the size ratio, stays under 60 s, never beyond 10,000 interactions, and its measured turns
 * stop after 120 s per size (at least one is measured).
 */
export function contenders(
  workload: Workload,
  lastMessages: number,
  limits = { turnBudgetMs: LANGGRAPH_TURN_BUDGET_MS },
): Contender[] {
  return [
    { name: 'mem', open: (dir) => openMemSystem({ dir, workload }), runsAt: () => true },
    {
      name: mastraCountName(lastMessages),
      open: (dir) => openMastraSystem({ dir, workload }, lastMessages),
      runsAt: () => true,
    },
    {
      name: MASTRA_TOKEN_LIMIT,
      open: (dir) => openMastraTokenLimitSystem({ dir, workload }),
      runsAt: () => true,
    },
    {
      name: 'LangGraph',
      open: (dir) => openLangGraphSystem({ dir, workload }),
      runsAt: (interactions, earlier) => langGraphRunsAt(interactions, earlier),
      turnBudgetMs: limits.turnBudgetMs,
      warmUp: 1,
    },
  ];
}

function langGraphRunsAt(interactions: number, earlier: readonly SystemResult[]): boolean {
  if (interactions > LANGGRAPH_MAX_INTERACTIONS) return false;
  const before = earlier.filter((r) => r.name === 'LangGraph').at(-1);
  if (before === undefined) return true;
  const projectedMs = (before.turn.medianUs / 1e3) * (interactions / before.interactions);
  return projectedMs <= LANGGRAPH_PROJECTED_TURN_LIMIT_MS;
}

export { mastraLastMessages };
