import { describe, expect, it } from 'vitest';
import { runTurns } from './check-turns.ts';
import { mastraLastMessages, openMastraSystem } from './systems/mastra-system.ts';
import { BUDGET_TOKENS, createWorkload } from './workload.ts';

const workload = createWorkload(40);

describe('Mastra memory (libSQL file, lastMessages): an agent turn', () => {
  it('puts the interaction it just stored into a prompt within the budget, dropping the oldest', async () => {
    const lastMessages = mastraLastMessages(workload, 40);
    expect(lastMessages).toBeGreaterThan(4);
    const turns = await runTurns((o) => openMastraSystem(o, lastMessages), workload, 20, 2);
    expect(turns).toHaveLength(2);
    for (const { prompt, newest, oldest } of turns) {
      expect(prompt.ids.slice(-4)).toEqual(newest);
      expect(prompt.tokens).toBeLessThanOrEqual(BUDGET_TOKENS);
      expect(prompt.tokens).toBeGreaterThan(BUDGET_TOKENS / 2);
      expect(prompt.ids).not.toContain(oldest[0]);
    }
  });
});
