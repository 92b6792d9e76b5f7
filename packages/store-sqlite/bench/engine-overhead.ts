import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmtUs, now, printTable, summarizeSamples } from '@mem/bench-kit';
import { createMemoryEngine, createTokenCounter, type Message } from '@mem/core';
import type { BenchRun } from '@mem/store-bench';
import { createSqliteStore } from '../src/index.ts';

/**
 * (f) What the engine adds to a warm turn on a SQLite file, side by side in interleaved rounds
 * on sessions of the same size: `session.append` of one interaction (4 messages, uncounted),
 * against its two parts done bare — counting the same messages with the same counter, and
 * `store.append` of the same counted messages on a twin session. Engine overhead per append =
 * append − counting − store write (medians). `context()` (max_tokens 4,000) is timed too, as the
 * other half of a turn.
 */
export async function runEngineOverhead(run: BenchRun): Promise<void> {
  const interactions = run.quick ? 1_000 : 10_000;
  const rounds = 10;
  const perRound = run.quick ? 50 : 200;
  const dir = mkdtempSync(join(tmpdir(), 'mem-engine-overhead-'));
  const store = createSqliteStore({ path: join(dir, 'overhead.db') });
  const counter = createTokenCounter();
  try {
    await run.prefill(store, 'engine', interactions);
    await run.prefill(store, 'bare', interactions);
    const engine = createMemoryEngine({
      store,
      tokenCounter: counter,
      profile: {
        short_term_memory_strategy: [
          { memory_strategy_id: 'max_tokens', memory_max_tokens: 4_000 },
        ],
      },
    });
    const session = engine.session('engine');
    await session.context(); // loads the session's tail, outside the timer
    // Fresh, uncounted copies of turn i (the bench's turns carry their counts).
    const uncounted = (i: number): Message[] =>
      run.turnAt(i).map(({ tokenCount: _, ...m }) => ({ ...m, id: `${m.id}-e` }));
    const samples = { append: [] as number[], count: [] as number[], store: [] as number[] };
    const context: number[] = [];
    let sink = 0;
    let next = interactions;
    const warmup = run.quick ? 20 : 100;
    for (let r = -1; r < rounds; r++) {
      const count = r < 0 ? warmup : perRound;
      const keep = r >= 0;
      for (let i = next; i < next + count; i++) {
        const messages = uncounted(i);
        let t0 = now();
        await session.append(messages);
        if (keep) samples.append.push(Number(now() - t0));
        t0 = now();
        const ctx = await session.context();
        if (keep) context.push(Number(now() - t0));
        sink += ctx.tokenCount;
      }
      for (let i = next; i < next + count; i++) {
        // Another turn than the engine's just counted: the tokenizer's merge cache holds those.
        const messages = uncounted(i + 7);
        const t0 = now();
        for (const m of messages) sink += counter.countMessage(m);
        if (keep) samples.count.push(Number(now() - t0));
      }
      for (let i = next; i < next + count; i++) {
        const messages = run.turnAt(i).map((m) => ({ ...m, id: `${m.id}-b` }));
        const t0 = now();
        await store.append('bare', messages, { idempotencyKey: `b${i}` });
        if (keep) samples.store.push(Number(now() - t0));
      }
      next += count;
    }
    if (sink === 0) throw new Error('nothing was counted');
    const append = summarizeSamples(samples.append);
    const count = summarizeSamples(samples.count);
    const write = summarizeSamples(samples.store);
    const ctx = summarizeSamples(context);
    const overheadUs = append.medianUs - count.medianUs - write.medianUs;
    const row = (part: string, s: typeof append) => ({
      part,
      median: fmtUs(s.medianUs),
      p90: fmtUs(s.p90Us),
      mean: fmtUs(s.meanUs),
    });
    printTable(
      `(f) Engine overhead on a warm turn, SQLite file, ${interactions.toLocaleString('en-US')} interactions (${rounds} interleaved rounds × ${perRound} turns)`,
      [
        row('session.append (engine)', append),
        row('counting the 4 messages', count),
        row('store.append of the counted messages', write),
        row('session.context() (max_tokens 4,000)', ctx),
      ],
    );
    console.log(
      `engine overhead per append (append − counting − store write, medians): ${fmtUs(overheadUs)} (target ≤ 30 µs)`,
    );
    run.out.engineOverhead = {
      interactions,
      appendMedianUs: append.medianUs,
      countMedianUs: count.medianUs,
      storeMedianUs: write.medianUs,
      overheadUs,
      contextMedianUs: ctx.medianUs,
      contextP90Us: ctx.p90Us,
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
