import { runCompactionLoop } from '../compaction-loop.ts';
import { importWorkerStore } from '../worker-store.ts';

/*
 * The compacting OS process of the multi-process and crash tests (protocol: runCompactionLoop):
 *   compactor.ts <worker-store module> <place> <session id> <pause ms> <keep interactions>
 */
const [module, place, sessionId, pause, keep] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const store = (await importWorkerStore(module))(place);
await runCompactionLoop(store, sessionId, Number(pause), Number(keep));
