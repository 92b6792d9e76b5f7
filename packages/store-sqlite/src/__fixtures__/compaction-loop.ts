import { runCompactionLoop } from '@mem/store-test-suite/processes';
import { createSqliteStore } from '../sqlite-store.ts';

/*
 * The compacting OS process of the multi-process and crash tests (protocol: runCompactionLoop):
 *   compaction-loop.ts <db file> <session id> <pause ms> <keep interactions>
 */
const [path, sessionId, pause, keep] = process.argv.slice(2) as [string, string, string, string];
const store = createSqliteStore({ path, busyTimeoutMs: 120_000 });
await runCompactionLoop(store, sessionId, Number(pause), Number(keep));
