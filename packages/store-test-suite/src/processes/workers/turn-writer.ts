import { turnMessages } from '../turns.ts';
import { onStdinLine, say } from '../worker-io.ts';
import { workerStoreFromArgv } from '../worker-store.ts';

/*
 * An OS process of the multi-process and crash tests:
 *   turn-writer.ts <worker-store module> <place> <session id> <writer> <first turn> <turns | "forever">
 * Opens the store, prints `ready`, waits for `go` on stdin, then appends turns
 * `<writer>:<first turn>`, ... one `store.append` each (idempotency key = turn id), printing
 * `ack <turn id>` after each acknowledged append (and waiting until the OS has the line), and
 * `done` at the end.
 */
const { store, args } = await workerStoreFromArgv();
const [sessionId, writer, first, count] = args as [string, string, string, string];
await store.info(sessionId);
const go = onStdinLine('go');
await say('ready');
await go;
const end = count === 'forever' ? Number.POSITIVE_INFINITY : Number(first) + Number(count);
for (let i = Number(first); i < end; i++) {
  const turnId = `${writer}:${i}`;
  await store.append(sessionId, turnMessages(turnId, Date.now()), { idempotencyKey: turnId });
  await say(`ack ${turnId}`);
}
await store.close();
await say('done');
process.exit(0);
