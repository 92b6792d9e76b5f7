import { runCompactionLoop } from '@mem/store-test-suite/processes';
import { openStore } from './open-store.ts';

/*
 * The compacting OS process of the multi-process and crash tests (protocol: runCompactionLoop):
 *   compaction-loop.ts <target> <key prefix> <session id> <pause ms> <keep interactions>
 */
const [target, prefix, sessionId, pause, keep] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
await runCompactionLoop(openStore(target, prefix), sessionId, Number(pause), Number(keep));
