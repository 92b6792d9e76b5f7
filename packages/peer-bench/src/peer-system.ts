import type { PromptView, Workload } from './workload.ts';

/** One system under test, on its own SQLite file in `dir`. */
export interface PeerSystem {
  readonly name: string;
  /** Stores interactions [0, interactions) through the system's fastest bulk path (not timed). */
  prefill(interactions: number): Promise<void>;
  /** Warms caches and statements outside the timer (a first read of the session). */
  warm(): Promise<void>;
  /** One agent turn: store interaction `i`'s 4 messages, then build the next prompt. */
  turn(i: number): Promise<PromptView>;
  /** Database file + WAL + SHM. */
  bytesOnDisk(): number;
  close(): Promise<void>;
}

export interface OpenSystemOptions {
  dir: string;
  workload: Workload;
}

/** Size of a SQLite database with its `-wal` and `-shm` files (0 for a missing one). */
export function sqliteBytes(path: string, statSize: (p: string) => number): number {
  return statSize(path) + statSize(`${path}-wal`) + statSize(`${path}-shm`);
}
