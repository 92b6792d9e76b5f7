import { forgetUserFacts, forgetUserSessionId } from '../forget-user-data.ts';
import { turnMessages } from '../turns.ts';
import { onStdinLine, say } from '../worker-io.ts';
import { workerStoreFromArgv } from '../worker-store.ts';

/*
 * An OS process of the forgetUser crash test:
 *   user-forgetter.ts <worker-store module> <place> <user> <sessions> <other user> <sessions>
 * Opens the store, gives each user its sessions (`forgetUserSessionId`, one turn each, bound
 * to the user; every third session gets a second turn) and facts (`forgetUserFacts`), prints
 * `created`, waits for `go` on stdin, prints `forgetting` (once the OS has the line), runs
 * `forgetUser(<user>)` and prints `forgot <result as JSON>`.
 */
const { store, args } = await workerStoreFromArgv();
const [user, sessions, other, otherSessions] = args as [string, string, string, string];
for (const [userId, count] of [
  [user, Number(sessions)],
  [other, Number(otherSessions)],
] as const) {
  for (let i = 0; i < count; i++) {
    const sessionId = forgetUserSessionId(userId, i);
    for (let turn = 0; turn < (i % 3 === 0 ? 2 : 1); turn++) {
      const turnId = `${sessionId}:${turn}`;
      await store.append(sessionId, turnMessages(turnId, Date.now()), {
        idempotencyKey: turnId,
        userId,
      });
    }
  }
  await store.writeUserFacts(userId, { expectedVersion: 0, facts: forgetUserFacts(userId) });
}
const go = onStdinLine('go');
await say('created');
await go;
await say('forgetting');
const result = await store.forgetUser(user);
await say(`forgot ${JSON.stringify(result)}`);
await store.close();
process.exit(0);
