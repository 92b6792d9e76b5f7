import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmtUs, now, printTable, summarizeSamples } from '@mem/bench-kit';
import { createMemoryEngine, createTokenCounter, type Message } from '@mem/core';
import type { BenchRun } from '@mem/store-bench';
import { createSqliteStore } from '../src/index.ts';

/**
 * (f) What the engine adds to a warm turn on a SQLite file, side by side in interleaved rounds
 * on sessions of the same size (one interaction = 4 messages):
 * - `session.append` of messages that carry their token counts (the engine keeps a given count),
 *   against `store.append` of the same counted messages on a twin session: the difference is the
 *   engine's own work on an append, counting aside (the target: at most 30 µs);
 * - the whole warm turn as users run it: `session.append` of uncounted messages, then
 *   `context()` (max_tokens 4,000), and counting those messages alone with the same counter.
 * Counting alone is measured on turns of another part of the conversation than the warm turns
 * of the round: the tokenizer's merge cache makes a second count of the same words cheaper.
 */
export async function runEngineOverhead(run: BenchRun): Promise<void> {
  const interactions = run.quick ? 1_000 : 10_000;
  const rounds = 10;
  const perRound = run.quick ? 50 : 200;
  const dir = mkdtempSync(join(tmpdir(), 'mem-engine-overhead-'));
  const store = createSqliteStore({ path: join(dir, 'overhead.db') });
  const counter = createTokenCounter();
  try {
    for (const id of ['counted', 'bare', 'turn']) await run.prefill(store, id, interactions);
    const engine = createMemoryEngine({
      store,
      tokenCounter: counter,
      profile: {
        short_term_memory_strategy: [
          { memory_strategy_id: 'max_tokens', memory_max_tokens: 4_000 },
        ],
      },
    });
    const counted = engine.session('counted');
    const turn = engine.session('turn');
    await counted.context(); // loads the sessions' tails, outside the timer
    await turn.context();
    const copy = (i: number, tag: string) =>
      run.turnAt(i).map((m) => ({ ...m, id: `${m.id}-${tag}` }));
    // Uncounted copies of a turn, and of a turn with every text made new (never counted).
    const uncounted = (i: number, tag: string): Message[] =>
      run.turnAt(i).map(({ tokenCount: _, ...m }) => ({
        ...m,
        id: `${m.id}-${tag}`,
        content: typeof m.content === 'string' ? `${tag} ${i} ${m.content}` : m.content,
      }));
    const samples = {
      append: [] as number[],
      store: [] as number[],
      turnAppend: [] as number[],
      count: [] as number[],
      context: [] as number[],
    };
    let sink = 0;
    let next = interactions;
    const warmup = run.quick ? 20 : 100;
    const apart = run.quick ? 1_000 : 5_000;
    for (let r = -1; r < rounds; r++) {
      const count = r < 0 ? warmup : perRound;
      const keep = r >= 0;
      const time = async (into: number[], work: () => Promise<unknown> | unknown) => {
        const t0 = now();
        await work();
        if (keep) into.push(Number(now() - t0));
      };
      for (let i = next; i < next + count; i++) {
        const messages = copy(i, 'e');
        await time(samples.append, () => counted.append(messages));
      }
      for (let i = next; i < next + count; i++) {
        const messages = copy(i, 'b');
        await time(samples.store, () =>
          store.append('bare', messages, { idempotencyKey: `b${i}` }),
        );
      }
      for (let i = next; i < next + count; i++) {
        const messages = uncounted(i, 't');
        await time(samples.turnAppend, () => turn.append(messages));
        await time(samples.context, async () => {
          sink += (await turn.context()).tokenCount;
        });
      }
      for (let i = next; i < next + count; i++) {
        // Turns of another part of the conversation: the warm turns' words are in the cache now.
        const messages = uncounted(i + apart, 'c');
        await time(samples.count, () => {
          for (const m of messages) sink += counter.countMessage(m);
        });
      }
      next += count;
    }
    if (sink === 0) throw new Error('nothing was counted');
    const append = summarizeSamples(samples.append);
    const write = summarizeSamples(samples.store);
    const turnAppend = summarizeSamples(samples.turnAppend);
    const count = summarizeSamples(samples.count);
    const ctx = summarizeSamples(samples.context);
    const overheadUs = append.medianUs - write.medianUs;
    const row = (part: string, s: typeof append) => ({
      part,
      median: fmtUs(s.medianUs),
      p90: fmtUs(s.p90Us),
      mean: fmtUs(s.meanUs),
    });
    printTable(
      `(f) Engine overhead on a warm turn, SQLite file, ${interactions.toLocaleString('en-US')} interactions (${rounds} interleaved rounds × ${perRound} turns)`,
      [
        row('session.append, counts given', append),
        row('store.append of the same messages', write),
        row('session.append, uncounted (a warm turn)', turnAppend),
        row('  counting those 4 messages alone', count),
        row('session.context() after it (max_tokens 4,000)', ctx),
      ],
    );
    console.log(
      `engine overhead per append (append with counts given − store.append, medians): ${fmtUs(overheadUs)} (target ≤ 30 µs); warm turn (append + context): ${fmtUs(turnAppend.medianUs + ctx.medianUs)}`,
    );
    run.out.engineOverhead = {
      interactions,
      appendCountedMedianUs: append.medianUs,
      storeMedianUs: write.medianUs,
      overheadUs,
      turnAppendMedianUs: turnAppend.medianUs,
      countMedianUs: count.medianUs,
      contextMedianUs: ctx.medianUs,
      contextP90Us: ctx.p90Us,
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
