import { createMemoryEngine } from '@mem/core';
import type { Store } from '@mem/core/backend';
import { onStdinLine, sawStdinLine, say } from './worker-io.ts';

/**
 * The body of a compactor worker process (the ninth process of the multi-process tests, and the
 * crash tests' compactor): on stdin `go`, compacts `sessionId` with `summarizeNow` (keeping
 * `keepInteractions`) in a loop with `pauseMs` between runs until stdin says `stop`. Prints
 * `ready`, then `attempt` and `compacted` / `unchanged` per run, and finally
 * `result {"attempts":N,"commits":N}`; closes the store and exits 0.
 */
export async function runCompactionLoop(
  store: Store,
  sessionId: string,
  pauseMs: number,
  keepInteractions: number,
): Promise<never> {
  const engine = createMemoryEngine({
    profile: {
      long_term_memory_strategy: [
        {
          long_term_memory_id: 'summarizer',
          interaction_threshold_qty: 0,
          interaction_threshold_tokens: 0,
          interaction_keep: keepInteractions,
        },
      ],
    },
    store,
  });
  const session = engine.session(sessionId);
  await store.info(sessionId);
  const go = onStdinLine('go');
  await say('ready');
  await go;
  let attempts = 0;
  let commits = 0;
  while (!sawStdinLine('stop')) {
    attempts += 1;
    await say('attempt');
    if (await session.summarizeNow({ keepInteractions })) {
      commits += 1;
      await say('compacted');
    } else {
      await say('unchanged');
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  await store.close();
  await say(`result ${JSON.stringify({ attempts, commits })}`);
  process.exit(0);
}
