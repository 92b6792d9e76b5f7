import { createMemoryEngine } from '@mem/core';
import { onStdinLine } from '@mem/store-test-suite/processes';
import { createSqliteStore } from '../sqlite-store.ts';

/*
 * An OS process of the close-durability test: per-request-writer.ts <db file> <requests> [keep]
 * Serves `requests` requests the way a stateless server does: a new store and engine each time,
 * one turn (user + assistant) appended, context() built, the store closed; prints `done <i>` once
 * request i is closed, then `closed`, and waits (to be SIGKILLed) for `exit` on stdin. With
 * `keep`, the stores are opened with `reuseConnection: true`.
 */
const [path, requests, keep] = process.argv.slice(2) as [string, string, string | undefined];
for (let i = 0; i < Number(requests); i++) {
  const store = createSqliteStore({ path, reuseConnection: keep === 'keep' });
  const session = createMemoryEngine({
    profile: {
      short_term_memory_strategy: [{ memory_strategy_id: 'max_tokens', memory_max_tokens: 4000 }],
    },
    store,
  }).session('s');
  await session.append([
    { id: `u${i}`, role: 'user', content: `question ${i}` },
    { id: `a${i}`, role: 'assistant', content: `answer ${i}` },
  ]);
  await session.context();
  await store.close();
  process.stdout.write(`done ${i}\n`);
}
process.stdout.write('closed\n');
await onStdinLine('exit');
