/**
 * `@mem/store-test-suite/processes`: helpers for a backend's multi-process and crash tests —
 * spawning TypeScript worker scripts as OS processes (run from the backend package's directory),
 * the turns they write, and the checks that every turn is whole, present once and in order.
 */
export type { Worker } from './processes/child-workers.ts';
export {
  expectCleanExit,
  killAllWorkers,
  seededRandom,
  sleep,
  spawnWorker,
} from './processes/child-workers.ts';
export { runCompactionLoop } from './processes/compaction-loop.ts';
export {
  checkSnapshotAccounts,
  turnMessages,
  wholeTurns,
  writerIndexes,
} from './processes/turns.ts';
export { onStdinLine, sawStdinLine } from './processes/worker-io.ts';
