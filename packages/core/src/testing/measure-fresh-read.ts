import { createMemoryEngine } from '../engine/memory-engine.ts';
import type { Store } from '../store/store-spec.ts';

export type FreshReadMode = 'context' | 'tail' | 'full';

/**
 * The body of the store benchmarks' fresh-process measurement: with a store just created in this
 * process, opens its connection (`store.info` of an absent session, timed as `openMs`), then
 * times one call (`callMs`): `context` — the engine's `session.context()` with a 4,000-token
 * `max_tokens` window; `tail` — `store.read(id, { from: 'end', limit: 200 })`; `full` —
 * `store.read(id)`. Closes the store and prints one JSON line.
 */
export async function measureFreshRead(
  store: Store,
  sessionId: string,
  mode: FreshReadMode,
): Promise<void> {
  const engine = createMemoryEngine({
    profile: {
      short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
    },
    store,
  });
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
}
