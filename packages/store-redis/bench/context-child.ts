import { runFreshReadChild } from '@mem/store-bench';
import { createRedisStore } from '../src/index.ts';

/** One fresh-process measurement (spawned by run.ts): argv = redis URL, session id, mode. */
await runFreshReadChild((url) => createRedisStore({ url, commandTimeoutMs: 60_000 }));
