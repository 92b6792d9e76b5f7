import { type FreshReadMode, measureFreshRead } from '@mem/core/testing';
import { createRedisStore } from '../src/index.ts';

/** One fresh-process measurement (spawned by run.ts): argv = redis URL, session id, mode. */
const [url, sessionId, mode] = process.argv.slice(2) as [string, string, FreshReadMode];
await measureFreshRead(createRedisStore({ url, commandTimeoutMs: 60_000 }), sessionId, mode);
