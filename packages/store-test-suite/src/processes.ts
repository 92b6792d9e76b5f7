/**
 * `@mem/store-test-suite/processes`: the tests a backend runs with OS processes —
 * `runCrashTests` (SIGKILL at random points, `forgetUser` killed half-way included) and `runMultiProcessTests` (eight writers and a
 * compactor) — and the helpers behind them: spawning TypeScript worker scripts as OS processes
 * (run from the backend package's directory), the turns they write, and the checks that every
 * turn is whole, present once and in order.
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
export { runCrashTests } from './processes/run-crash-tests.ts';
export { runFlushCrashTests } from './processes/run-flush-crash-tests.ts';
export { runForgetUserCrashTests } from './processes/run-forget-user-crash-tests.ts';
export { runMultiProcessTests } from './processes/run-multi-process-tests.ts';
export {
  checkSnapshotAccounts,
  turnMessages,
  wholeTurns,
  writerIndexes,
} from './processes/turns.ts';
export { onStdinLine, sawStdinLine } from './processes/worker-io.ts';
export type { ProcessTestBackend, WorkerStoreModule } from './processes/worker-store.ts';
export {
  spawnCompactor,
  spawnFlushWriter,
  spawnTurnWriter,
  spawnUserForgetter,
} from './processes/worker-store.ts';
