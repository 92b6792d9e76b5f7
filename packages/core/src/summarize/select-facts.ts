import type { TokenCounter } from '../tokens/token-counter.ts';
import type { Fact } from './collect-facts.ts';

/** Share of the budget reserved first for lines carried over from earlier summaries. */
export const EARLIER_SUMMARY_SHARE = 0.5;
/** Stop filling once this little budget is left. */
const MIN_LINE_TOKENS = 4;
/** Stop filling after this many candidates in a row did not fit (bounds tokenizer work). */
const MAX_MISSES = 32;

const byPriority = (a: Fact, b: Fact) => b.score - a.score || a.order - b.order;

/** Tokens a line costs in the summary, its newline included. Counted once per line. */
export type LineCost = (fact: Fact) => number;

export function lineCost(counter: TokenCounter): LineCost {
  const costs = new Map<Fact, number>();
  return (fact) => {
    let cost = costs.get(fact);
    if (cost === undefined) {
      cost = counter.countText(fact.line) + 1;
      costs.set(fact, cost);
    }
    return cost;
  };
}

function fill(candidates: Fact[], budget: number, cost: LineCost, into: Set<Fact>): number {
  let used = 0;
  let misses = 0;
  for (const fact of candidates) {
    if (budget - used < MIN_LINE_TOKENS || misses >= MAX_MISSES) break;
    const c = cost(fact);
    if (used + c <= budget) {
      into.add(fact);
      used += c;
      misses = 0;
    } else {
      misses++;
    }
  }
  return used;
}

/**
 * Picks the facts that fit `budget` tokens, highest score first, and returns them in
 * chronological order. Lines from earlier summaries get the first `EARLIER_SUMMARY_SHARE` of the
 * budget (all of it when there is nothing new), so a summary of summaries keeps the earlier key
 * lines; then everything left competes for the rest. Only candidate lines are tokenized.
 */
export function selectFacts(facts: readonly Fact[], budget: number, cost: LineCost): Fact[] {
  const chosen = new Set<Fact>();
  const earlier = facts.filter((f) => f.previous).sort(byPriority);
  const hasNew = earlier.length < facts.length;
  const used = fill(
    earlier,
    hasNew ? Math.floor(budget * EARLIER_SUMMARY_SHARE) : budget,
    cost,
    chosen,
  );
  const rest = facts.filter((f) => !chosen.has(f)).sort(byPriority);
  fill(rest, budget - used, cost, chosen);
  return [...chosen].sort((a, b) => a.order - b.order);
}

/** Drops the lowest-scored facts until at least `excess` tokens of lines are gone. */
export function dropLowest(chosen: readonly Fact[], excess: number, cost: LineCost): Fact[] {
  const victims = new Set<Fact>();
  let freed = 0;
  for (const fact of [...chosen].sort(byPriority).reverse()) {
    if (freed >= excess) break;
    victims.add(fact);
    freed += cost(fact);
  }
  return chosen.filter((f) => !victims.has(f));
}
