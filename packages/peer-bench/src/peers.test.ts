import { describe, expect, it } from 'vitest';
import { runTurns } from './check-turns.ts';
import { openLangGraphSystem } from './systems/langgraph-system.ts';
import { openMemSystem } from './systems/mem-system.ts';
import { BUDGET_TOKENS, createWorkload } from './workload.ts';

// 20 interactions of ~300 tokens: the 4,000-token budget holds only the newest dozen or so.
const workload = createWorkload(40);

describe.each([
  ['mem', openMemSystem],
  ['LangGraph (SqliteSaver + trimMessages)', openLangGraphSystem],
])('%s: an agent turn on a SQLite file', (_name, open) => {
  it('puts the interaction it just stored into a prompt within the budget, dropping the oldest', async () => {
    const turns = await runTurns(open, workload, 20, 2);
    expect(turns).toHaveLength(2);
    for (const { prompt, newest, oldest } of turns) {
      expect(prompt.ids.slice(-4)).toEqual(newest);
      expect(prompt.tokens).toBeLessThanOrEqual(BUDGET_TOKENS);
      expect(prompt.tokens).toBeGreaterThan(BUDGET_TOKENS / 2);
      expect(prompt.ids).not.toContain(oldest[0]);
    }
  });
});
