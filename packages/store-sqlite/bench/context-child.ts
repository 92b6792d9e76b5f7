import { type FreshReadMode, measureFreshRead } from '@mem/core/testing';
import { createSqliteStore } from '../src/index.ts';

/** One fresh-process measurement (spawned by run.ts): argv = database path, session id, mode. */
const [path, sessionId, mode] = process.argv.slice(2) as [string, string, FreshReadMode];
await measureFreshRead(createSqliteStore({ path }), sessionId, mode);
