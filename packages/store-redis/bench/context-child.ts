import { performance } from 'node:perf_hooks';
import { createMemoryEngine } from '@mem/core';
import { createRedisStore } from '../src/index.ts';

/**
 * One fresh-process measurement (spawned by run.ts): argv = redis URL, session id, mode.
 * - context: createRedisStore + createMemoryEngine (max_tokens 4,000), time `session.context()`.
 * - tail: time `store.read(id, { from: 'end', limit: 200 })`.
 * - full: time `store.read(id)` (the whole active history).
 * The connection is opened first (`store.info` of an absent session) and timed apart as
 * `openMs`. Prints one JSON line.
 */
const [url, sessionId, mode] = process.argv.slice(2) as [string, string, string];
const store = createRedisStore({ url, commandTimeoutMs: 60_000 });
const engine = createMemoryEngine({
  profile: {
    short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
  },
  store,
});
// Open the connection first (the store connects lazily) and time that on its own.
const open0 = performance.now();
await store.info('bench-connection-probe');
const openMs = performance.now() - open0;
const t0 = performance.now();
let messages: number;
if (mode === 'context') {
  messages = (await engine.session(sessionId).context()).messages.length;
} else if (mode === 'tail') {
  messages = (await store.read(sessionId, { from: 'end', limit: 200 })).messages.length;
} else {
  messages = (await store.read(sessionId)).messages.length;
}
const callMs = performance.now() - t0;
const sinceStartMs = performance.now();
await store.close();
console.log(JSON.stringify({ mode, openMs, callMs, sinceStartMs, messages }));
