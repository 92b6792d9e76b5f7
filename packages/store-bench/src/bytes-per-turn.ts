import type { Store } from '@mem/core/backend';
import type { BenchRun } from './bench-run.ts';

/** Reads a backend's write counters (bytes), keyed by the per-turn field they become. */
export interface BytesProbe {
  /** Runs before each batch (e.g. truncate the WAL). */
  beforeBatch?: () => void | Promise<void>;
  /** Current counters, e.g. `{ aofBytesPerTurn: <AOF size> }`; a batch's cost is the delta. */
  read: () => Record<string, number> | Promise<Record<string, number>>;
  close: () => void | Promise<void>;
}

/** How the bytes section reaches a backend. */
export interface BytesOptions {
  /** The store the turns are appended through. */
  openStore: () => Store;
  /** Opens the probe, after the prefill. */
  openProbe: () => BytesProbe | Promise<BytesProbe>;
}

/**
 * Bytes written per appended turn on sessions of `sizes` interactions: `rounds` interleaved
 * batches of `perRound` turns per size.
 */
export async function benchBytes(
  run: BenchRun,
  options: BytesOptions,
  sizes: readonly number[],
  rounds: number,
  perRound: number,
): Promise<Array<Record<string, number> & { interactions: number; turns: number }>> {
  const store = options.openStore();
  for (const size of sizes) await run.prefill(store, `b${size}`, size);
  const probe = await options.openProbe();
  const acc = new Map(sizes.map((s) => [s, { bytes: new Map<string, number>(), turns: 0 }]));
  const next = new Map(sizes.map((s) => [s, s]));
  for (let r = 0; r < rounds; r++) {
    for (const size of sizes) {
      await probe.beforeBatch?.();
      const before = await probe.read();
      const from = next.get(size)!;
      for (let i = from; i < from + perRound; i++) {
        await store.append(`b${size}`, run.turnAt(i), { idempotencyKey: `c${i}` });
      }
      next.set(size, from + perRound);
      const after = await probe.read();
      const a = acc.get(size)!;
      for (const [key, value] of Object.entries(after)) {
        a.bytes.set(key, (a.bytes.get(key) ?? 0) + value - (before[key] ?? 0));
      }
      a.turns += perRound;
    }
  }
  await probe.close();
  await store.close();
  return sizes.map((size) => {
    const a = acc.get(size)!;
    const perTurn = Object.fromEntries([...a.bytes].map(([key, bytes]) => [key, bytes / a.turns]));
    return { interactions: size, turns: a.turns, ...perTurn };
  });
}
