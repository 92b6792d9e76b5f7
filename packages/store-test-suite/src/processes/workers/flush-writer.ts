import { writeSync } from 'node:fs';
import { createMemoryEngine } from '@mem/core';
import { FLUSH_CRASH_PROFILE } from '../flush-crash-profile.ts';
import { turnMessages } from '../turns.ts';
import { onStdinLine, say } from '../worker-io.ts';
import { workerStoreFromArgv } from '../worker-store.ts';

/*
 * An OS process of the FLUSH crash test:
 *   flush-writer.ts <worker-store module> <place> <session id> <writer> <"stall" | "run">
 * Opens a FLUSH engine on the store, prints `ready`, waits for `go` on stdin, then per turn
 * `<writer>:<i>`: appends it (idempotency key = turn id), prints `ack <turn id>`, waits for the
 * long-term run and the flush, prints `flushed <turn id>`. Every committed compaction prints
 * `compacted` at once; with "stall" the process then blocks (as if it froze right there), so
 * the test can kill it after a compaction and before the flush that follows it.
 */
const { store, args } = await workerStoreFromArgv();
const [sessionId, writer, mode] = args as [string, string, string];
const engine = createMemoryEngine({ profile: FLUSH_CRASH_PROFILE, store });
engine.on('compacted', () => {
  writeSync(1, 'compacted\n');
  if (mode === 'stall') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
});
const session = engine.session(sessionId);
await store.info(sessionId);
const go = onStdinLine('go');
await say('ready');
await go;
for (let i = 0; ; i++) {
  const turnId = `${writer}:${i}`;
  await session.append(turnMessages(turnId, Date.now()), { idempotencyKey: turnId });
  await say(`ack ${turnId}`);
  await session.idle();
  await say(`flushed ${turnId}`);
}
