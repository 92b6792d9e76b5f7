import { runFreshReadChild } from '@mem/store-bench';
import { createSqliteStore } from '../src/index.ts';

/** One fresh-process measurement (spawned by run.ts): argv = database path, session id, mode. */
await runFreshReadChild((path) => createSqliteStore({ path }));
