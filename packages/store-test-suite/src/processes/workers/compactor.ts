import { runCompactionLoop } from '../compaction-loop.ts';
import { workerStoreFromArgv } from '../worker-store.ts';

/*
 * The compacting OS process of the multi-process and crash tests (protocol: runCompactionLoop):
 *   compactor.ts <worker-store module> <place> <session id> <pause ms> <keep interactions>
 */
const { store, args } = await workerStoreFromArgv();
const [sessionId, pause, keep] = args as [string, string, string];
await runCompactionLoop(store, sessionId, Number(pause), Number(keep));
