import type { CountedMessage, Store } from '@mem/core/backend';
import { countedTurns, meanJsonBytes } from '@mem/core/testing';

/** One bench run of a store: its flags, the turns it appends, and the JSON line it prints. */
export interface BenchRun {
  /** `--quick`: smaller sizes. */
  quick: boolean;
  /** The JSON line printed at the end; sections add their fields in order. */
  out: Record<string, unknown>;
  /** Turn `i` (4 messages); past the base conversation, its turns repeat with fresh ids. */
  turnAt(i: number): CountedMessage[];
  /** Mean JSON size of one message of the base conversation. */
  bytesPerMessage: number;
  /** Appends turns [0, interactions) to `sessionId`, 250 turns per append. */
  prefill(store: Store, sessionId: string, interactions: number): Promise<void>;
}

/** Reads the flags and counts the base conversation (10,000 interactions, 2,000 with `--quick`). */
export function startBench(bench: string, argv: readonly string[] = process.argv): BenchRun {
  const quick = argv.includes('--quick');
  /** A 10,000-interaction conversation, counted once; longer sessions repeat it with fresh ids. */
  const base = countedTurns(quick ? 2_000 : 10_000);
  const turnAt = (i: number): CountedMessage[] => {
    const turn = base[i % base.length]!;
    const lap = Math.floor(i / base.length);
    return lap === 0 ? turn : turn.map((m) => ({ ...m, id: `${m.id}-${lap}` }));
  };
  return {
    quick,
    out: { bench, node: process.version, quick },
    turnAt,
    bytesPerMessage: meanJsonBytes(base),
    async prefill(store, sessionId, interactions) {
      const batch = 250;
      for (let i = 0; i < interactions; i += batch) {
        const messages: CountedMessage[] = [];
        for (let t = i; t < Math.min(interactions, i + batch); t++) messages.push(...turnAt(t));
        await store.append(sessionId, messages, { idempotencyKey: `prefill-${i}` });
      }
    },
  };
}
