import { now, type BenchSummary as Summary, summarizeSamples } from '@mem/bench-kit';
import { createMemoryEngine, type MemoryEngine } from '../src/engine/memory-engine.ts';
import type { Message } from '../src/model/message.ts';
import { extractiveSummary } from '../src/summarize/extractive-summarizer.ts';
import { generateConversation } from '../src/testing/generate-conversation.ts';
import { createTokenCounter } from '../src/tokens/token-counter.ts';

const window = { memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 };
export const PLAIN_PROFILE = { short_term_memory_strategy: [window] };
export const SUMMARIZER_PROFILE = {
  short_term_memory_strategy: [window],
  long_term_memory_strategy: [
    {
      long_term_memory_id: 'summarizer',
      interaction_threshold_qty: 20,
      interaction_keep: 2,
      cod_max_loops: 3,
      knowledge_base: { collection_id: 'bench', search_mode: 'always', top_k: 3 },
    },
  ],
};

function turns(messages: readonly Message[]): Message[][] {
  const out: Message[][] = [];
  for (const m of messages) {
    if (m.role === 'user') out.push([m]);
    else out.at(-1)!.push(m);
  }
  return out;
}

export interface EngineResult {
  profile: 'plain' | 'summarizer+kb';
  interactions: number;
  perTurn: Summary;
  compactions: number;
}

/** A session of `history` turns under `profile`, with more turns waiting. */
class EngineRun {
  readonly samples: number[] = [];
  compactions = 0;
  private constructor(
    readonly profile: EngineResult['profile'],
    private readonly engine: MemoryEngine,
    private readonly pending: Message[][],
  ) {
    engine.on('compacted', () => this.compactions++);
  }

  static async create(
    name: EngineResult['profile'],
    profile: unknown,
    history: number,
    measured: number,
  ) {
    const engine = createMemoryEngine({ profile });
    const all = turns(generateConversation({ interactions: history + measured, seed: 11 }));
    const session = engine.session('bench');
    for (const turn of all.slice(0, history)) {
      await session.append(turn);
      await session.idle();
    }
    return new EngineRun(name, engine, all.slice(history));
  }

  /** Times `count` turns: append one turn, build the context; compaction settles untimed. */
  async measure(count: number): Promise<void> {
    const session = this.engine.session('bench');
    for (let i = 0; i < count; i++) {
      const turn = this.pending.shift()!;
      const t0 = now();
      await session.append(turn);
      await session.context();
      this.samples.push(Number(now() - t0));
      await session.idle(); // background compaction is timed separately (benchEngineWall)
    }
  }

  result(history: number): EngineResult {
    return {
      profile: this.profile,
      interactions: history,
      perTurn: summarizeSamples(this.samples),
      compactions: this.compactions,
    };
  }
}

/**
 * Appends one turn (4 messages) and builds the next context on sessions of `history` turns,
 * one per profile, measured in interleaved rounds so machine noise hits both alike.
 */
export async function benchEngines(
  profiles: ReadonlyArray<[EngineResult['profile'], unknown]>,
  history: number,
  measured: number,
  rounds = 5,
): Promise<EngineResult[]> {
  const runs: EngineRun[] = [];
  for (const [name, profile] of profiles)
    runs.push(await EngineRun.create(name, profile, history, measured));
  const perRound = Math.ceil(measured / rounds);
  for (let r = 0; r < rounds; r++) for (const run of runs) await run.measure(perRound);
  return runs.map((run) => run.result(history));
}

/** The whole cost, background compaction included: wall time of `measured` turns / turns. */
export async function benchEngineWall(
  profile: unknown,
  history: number,
  measured: number,
): Promise<number> {
  const engine = createMemoryEngine({ profile });
  const session = engine.session('wall');
  const all = turns(generateConversation({ interactions: history + measured, seed: 12 }));
  for (const turn of all.slice(0, history)) {
    await session.append(turn);
    await session.idle();
  }
  const t0 = now();
  for (const turn of all.slice(history)) {
    await session.append(turn);
    await session.context();
    await session.idle();
  }
  return Number(now() - t0) / measured / 1e3;
}

export interface ExtractiveResult {
  historyTokens: number;
  medianMs: number;
}

/** Extractive (no-LLM) summary of ~100,000 tokens of history. */
export function benchExtractive(runs: number): ExtractiveResult {
  const counter = createTokenCounter();
  const messages = generateConversation({ interactions: 700, seed: 5 }).map((m) => ({
    ...m,
    tokenCount: counter.countMessage(m),
  }));
  const historyTokens = messages.reduce((s, m) => s + m.tokenCount, 0);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = now();
    extractiveSummary(messages, { targetTokens: 2000, counter });
    samples.push(Number(now() - t0));
  }
  return { historyTokens, medianMs: summarizeSamples(samples).medianUs / 1e3 };
}
