import { createSqliteStore } from '../sqlite-store.ts';

/*
 * An OS process of the read-only test, run as a user who may not write the file or its
 * directory: read-only-reader.ts <db file> <session id>
 * Opens the store without options, prints `read <JSON of the messages' ids>` (or `read-error
 * <message>`), then tries one append and prints `append-error <code> <message>` or `appended`.
 */
const [path, sessionId] = process.argv.slice(2) as [string, string];
const store = createSqliteStore({ path });
try {
  const { messages } = await store.read(sessionId);
  process.stdout.write(`read ${JSON.stringify(messages.map((m) => m.id))}\n`);
} catch (error) {
  process.stdout.write(`read-error ${(error as Error).message}\n`);
}
try {
  await store.append(
    sessionId,
    [{ id: 'late', role: 'user', content: 'late', createdAt: 1, tokenCount: 1 }],
    { idempotencyKey: 'late' },
  );
  process.stdout.write('appended\n');
} catch (error) {
  process.stdout.write(
    `append-error ${(error as { code?: string }).code} ${(error as Error).message}\n`,
  );
}
await store.close();
process.exit(0);
