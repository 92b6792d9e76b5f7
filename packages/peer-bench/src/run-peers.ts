import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchSummary, now, summarizeSamples } from '@mem/bench-kit';
import type { PeerSystem } from './peer-system.ts';
import { BUDGET_TOKENS, type Workload } from './workload.ts';

/** A system in the comparison and how far it runs. */
export interface Contender {
  name: string;
  open(dir: string): PeerSystem;
  /** Whether it runs at this size (given what it measured at the sizes before). */
  runsAt(interactions: number, earlier: readonly SystemResult[]): boolean;
  /** Measured turns stop once they add up to this much time at one size (ms). */
  turnBudgetMs?: number;
  /** Untimed turns before the rounds, when fewer than the others' (its history then skips them). */
  warmUp?: number;
}

export interface SystemResult {
  name: string;
  interactions: number;
  prefillMs: number;
  /** Database + WAL + SHM after the pre-fill. */
  bytes: number;
  /** The same after every turn (warm-up and measured): what the turns added. */
  bytesAfterTurns: number;
  /** Turns stored after the pre-fill (warm-up and measured). */
  turnsStored: number;
  turn: BenchSummary;
  /** Median messages in the prompt (mem messages; a Mastra record maps back to its messages). */
  promptMessages: number;
  maxPromptTokens: number;
  /** Median prompt tokens (as mem counts them). */
  medianPromptTokens: number;
  /** Turns whose prompt missed the new interaction or went over the budget. */
  badPrompts: number;
  /** Turns whose prompt missed the new interaction. */
  missedNewest: number;
  /** Turns whose prompt went over the budget (counted as mem counts: o200k_base). */
  overBudget: number;
  /** Set when the turn budget cut the measured turns short. */
  stoppedEarly: boolean;
}

export interface RoundsOptions {
  rounds: number;
  perRound: number;
  warmUp: number;
  /** Called after each system's pre-fill (progress lines). */
  log?: (line: string) => void;
}

/**
 * Every contender on its own fresh SQLite file, pre-filled with `interactions`, then measured
 * turns in interleaved rounds: round r runs `perRound` turns of each contender in turn, all
 * storing the same interactions (N, N+1, ...). After `warmUp` untimed turns each.
 */
export async function runSize(
  workload: Workload,
  interactions: number,
  contenders: readonly Contender[],
  earlier: readonly SystemResult[],
  options: RoundsOptions,
): Promise<SystemResult[]> {
  const opened: Array<{
    contender: Contender;
    system: PeerSystem;
    dir: string;
    result: SystemResult;
    samples: number[];
    tokens: number[];
    sizes: number[];
    spentMs: number;
  }> = [];
  try {
    for (const contender of contenders) {
      if (!contender.runsAt(interactions, earlier)) continue;
      const slug = contender.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      const dir = mkdtempSync(join(tmpdir(), `mem-peer-${slug}-`));
      const system = contender.open(dir);
      const t0 = now();
      await system.prefill(interactions);
      const prefillMs = Number(now() - t0) / 1e6;
      const bytes = system.bytesOnDisk();
      await system.warm();
      options.log?.(
        `${contender.name}: ${interactions} interactions pre-filled in ${(prefillMs / 1e3).toFixed(1)} s`,
      );
      opened.push({
        contender,
        system,
        dir,
        samples: [],
        tokens: [],
        sizes: [],
        spentMs: 0,
        result: {
          name: contender.name,
          interactions,
          prefillMs,
          bytes,
          bytesAfterTurns: bytes,
          turnsStored: 0,
          turn: summarizeSamples([]),
          promptMessages: 0,
          maxPromptTokens: 0,
          medianPromptTokens: 0,
          badPrompts: 0,
          missedNewest: 0,
          overBudget: 0,
          stoppedEarly: false,
        },
      });
    }
    let next = interactions;
    for (const o of opened) {
      const warmUp = Math.min(options.warmUp, o.contender.warmUp ?? options.warmUp);
      for (let i = next; i < next + warmUp; i++) await o.system.turn(i);
      o.result.turnsStored += warmUp;
    }
    next += options.warmUp;
    for (let r = 0; r < options.rounds; r++) {
      for (const o of opened) {
        for (let i = next; i < next + options.perRound; i++) {
          const budget = o.contender.turnBudgetMs;
          if (budget !== undefined && o.spentMs >= budget && o.samples.length > 0) {
            o.result.stoppedEarly = true;
            break;
          }
          const t0 = now();
          const prompt = await o.system.turn(i);
          const ns = Number(now() - t0);
          o.spentMs += ns / 1e6;
          o.samples.push(ns);
          o.result.turnsStored++;
          o.tokens.push(prompt.tokens);
          o.sizes.push(prompt.ids.length);
          const newest = workload.turnAt(i).map((m) => m.id);
          const missed = !newest.every((id) => prompt.ids.includes(id));
          const over = prompt.tokens > BUDGET_TOKENS;
          if (missed) o.result.missedNewest++;
          if (over) o.result.overBudget++;
          if (missed || over) o.result.badPrompts++;
        }
      }
      next += options.perRound;
    }
    for (const o of opened) {
      o.result.turn = summarizeSamples(o.samples);
      o.result.bytesAfterTurns = o.system.bytesOnDisk();
      o.result.maxPromptTokens = Math.max(0, ...o.tokens);
      o.result.promptMessages = median(o.sizes);
      o.result.medianPromptTokens = median(o.tokens);
    }
    return opened.map((o) => o.result);
  } finally {
    for (const o of opened) {
      await o.system.close();
      rmSync(o.dir, { recursive: true, force: true });
    }
  }
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
}
