import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenSystemOptions, PeerSystem } from './peer-system.ts';
import type { PromptView, Workload } from './workload.ts';

/**
 * The `--quick` workload at test size: a fresh file in a temp dir, `interactions` pre-filled,
 * then `turns` turns; returns each turn's prompt with the ids of the interaction it stored.
 */
export async function runTurns(
  open: (options: OpenSystemOptions) => PeerSystem,
  workload: Workload,
  interactions: number,
  turns: number,
): Promise<Array<{ prompt: PromptView; newest: string[]; oldest: string[] }>> {
  const dir = mkdtempSync(join(tmpdir(), 'mem-peer-test-'));
  const system = open({ dir, workload });
  try {
    await system.prefill(interactions);
    await system.warm();
    const out = [];
    for (let i = interactions; i < interactions + turns; i++) {
      const prompt = await system.turn(i);
      out.push({
        prompt,
        newest: workload.turnAt(i).map((m) => m.id),
        oldest: workload.turnAt(0).map((m) => m.id),
      });
    }
    return out;
  } finally {
    await system.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
