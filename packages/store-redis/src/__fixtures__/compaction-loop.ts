import { createMemoryEngine } from '@mem/core';
import { onStdinLine, sawStdinLine } from '@mem/store-test-suite/processes';
import { openStore } from './open-store.ts';

/*
 * The compacting OS process of the multi-process and crash tests:
 *   compaction-loop.ts <target> <key prefix> <session id> <pause ms> <keep interactions>
 * Prints `ready`, waits for `go`, then runs `summarizeNow` through the engine in a loop, pausing
 * between runs; prints `attempt` before each run and `compacted` (committed) or `unchanged`
 * after it, until `stop` arrives on stdin; then prints `result {"attempts":n,"commits":n}` and exits.
 */
const [target, prefix, sessionId, pause, keep] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const store = openStore(target, prefix);
const engine = createMemoryEngine({
  profile: {
    long_term_memory_strategy: [
      {
        long_term_memory_id: 'summarizer',
        interaction_threshold_qty: 0,
        interaction_threshold_tokens: 0,
        interaction_keep: Number(keep),
      },
    ],
  },
  store,
});
const session = engine.session(sessionId);
await store.info(sessionId);
const go = onStdinLine('go');
process.stdout.write('ready\n');
await go;
let attempts = 0;
let commits = 0;
while (!sawStdinLine('stop')) {
  attempts += 1;
  process.stdout.write('attempt\n');
  if (await session.summarizeNow({ keepInteractions: Number(keep) })) {
    commits += 1;
    process.stdout.write('compacted\n');
  } else {
    process.stdout.write('unchanged\n');
  }
  await new Promise((resolve) => setTimeout(resolve, Number(pause)));
}
await store.close();
process.stdout.write(`result ${JSON.stringify({ attempts, commits })}\n`);
process.exit(0);
